// One of the racing agents of race.test.ts: drains the backlog through claims, printing one JSON line per event.
import { Repo } from '../../dist/src/engine/index.js';
import { claim, recall, releaseClaim, scan, update } from '../../dist/src/memory/index.js';
import { citationProbe } from '../../dist/src/engine/index.js';

const [root, home, me] = process.argv.slice(2);
const repo = Repo.open(root, { flags: { home, embedder: 'none' }, env: {} });
const memory = repo.memory;
const say = (event) => process.stdout.write(JSON.stringify({ me, ...event }) + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const refusal = (err) => /^(\w+):/.exec(err.message)?.[1] ?? err.message;

for (;;) {
  const page = await scan(memory, { scope: 'memory_topic', topic: 'backlog', page_size: 500 });
  const todo = page.items.filter((i) => i.tags.includes('todo'));
  if (!todo.length) break;
  for (const item of todo.sort(() => Math.random() - 0.5)) {
    const got = await claim(memory, { key: item.key, owner: me, lease_seconds: 1 });
    if (!got.granted) continue;
    const token = got.fencing_token;
    const r = await recall(memory, { key: item.key }, citationProbe(repo));
    if (r.fields.body !== 'todo') {
      await releaseClaim(memory, { key: item.key, fencing_token: token });
      continue;
    }
    try {
      await update(memory, { key: item.key, fields: { author: me }, fencing_token: token });
      // Sometimes outlive the lease, so another agent may take the item over.
      await sleep(Math.random() < 0.15 ? 1200 : Math.random() * 10);
      await update(memory, { key: item.key, fields: { body: `done:${me}` }, remove_tags: ['todo'], add_tags: ['done'], fencing_token: token });
      const after = await recall(memory, { key: item.key }, citationProbe(repo));
      say({ event: 'processed', key: item.key, token, author: after.fields.author });
    } catch (err) {
      say({ event: 'refused', key: item.key, token, reason: refusal(err) });
    }
    await releaseClaim(memory, { key: item.key, fencing_token: token });
    try {
      await update(memory, { key: item.key, fields: { provenance: 'after release' }, fencing_token: token });
      say({ event: 'accepted_after_release', key: item.key, token });
    } catch (err) {
      say({ event: 'refused_after_release', key: item.key, token, reason: refusal(err) });
    }
  }
}
repo.close();
