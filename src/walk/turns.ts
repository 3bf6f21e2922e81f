/**
 * Synchronous reads let through a few at a time per turn of the event loop. A read of a cached
 * file or directory takes microseconds, where the thread pool's round trip costs ten times that,
 * so walks and reads are synchronous; a server that runs them keeps answering between turns.
 * Readers beyond a turn's share wait in line, each woken once, for the next turn.
 */
export class Turns {
  private left: number;
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly perTurn = 64) {
    this.left = perTurn;
  }

  /** Resolves when this read may go: at once while the turn has reads left, else in a later turn. */
  async take(): Promise<void> {
    if (this.left > 0) {
      this.left--;
      return;
    }
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const released = this.waiting.splice(0, this.perTurn);
      this.left = this.perTurn - released.length;
      for (const go of released) go();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}
