#!/usr/bin/env python3
"""Mines (doc comment -> code) pairs from downloaded Debian packages.

usage: mine_pairs.py DEBS_DIR OUT.jsonl

Reads each .deb's file tree as a stream (nothing is installed) and emits one
JSON line per documented function, method or class:
  {"lang", "pkg", "path", "name", "query", "code"}
`query` is the doc comment as prose (markup and tags stripped, a leading
restatement of the name dropped); `code` is what sightline embeds for a chunk,
minus the doc comment: the breadcrumb, then the source without its docs. Files
whose path names a benchmark repository are skipped, so vendored copies of
them never reach training.
"""
import ast
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile

BENCH_PATH = re.compile(
    r"(^|/)(flask|requests|_pytest|pytest|sphinx|pylint|xarray|seaborn|grpc|grpc-go|go-zero|zeromicro|tokio[\w-]*"
    r"|tracing[\w-]*|serde[\w-]*|rayon[\w-]*|bytes|globset|grep[\w-]*|ignore|bat|fd|ripgrep|gson|jackson[\w-]*"
    r"|mockito|dayjs|axios|express|darkreader|github-readme-stats)(/|$|\.)",
    re.I,
)
MAX_CODE_LINES = 60
MAX_QUERY_CHARS = 600
MAX_FILE_BYTES = 400_000
EXT_LANG = {".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".mjs": "javascript",
            ".cjs": "javascript", ".ts": "typescript", ".java": "java"}


def clean_prose(text):
    text = re.sub(r"\{@\w+\s+([^}]*)\}", r"\1", text)  # javadoc {@code x}
    text = re.sub(r"</?[a-zA-Z][^>]*>", " ", text)  # html
    text = re.sub(r"[`*]|:\w+:|\[\[|\]\]", " ", text)  # markdown / rst roles
    return re.sub(r"\s+", " ", text).strip()


def doc_prose(lines):
    """The descriptive part of a doc comment: text before the first tag, plus parameter descriptions."""
    out, in_tags = [], False
    for line in lines:
        s = line.strip()
        m = re.match(r"@(param|arg|argument)\s+(\{[^}]*\}\s*)?\[?([\w.$]+)\]?\s*-?\s*(.*)", s)
        if m:
            in_tags = True
            out.append(m.group(4))
            continue
        if s.startswith("@") or re.match(r"#\s*(Examples?|Panics|Safety|Errors)\b", s) or s.startswith("```"):
            in_tags = True
            continue
        if not in_tags:
            out.append(s)
    return clean_prose(" ".join(out))


def drop_name_lead(prose, name):
    """Go and Rust docs often open with the name itself ("Parse parses ..."): that is not prose."""
    words = prose.split(" ", 1)
    if len(words) == 2 and words[0].strip("`'\"") in (name, name + "()"):
        return words[1]
    return prose


def good_query(q):
    return len(q) >= 20 and len(q.split()) >= 4


# ---- Python ---------------------------------------------------------------

def mine_python(path, text):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    lines = text.split("\n")

    def visit(node, crumbs):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kind = "class" if isinstance(child, ast.ClassDef) else "def"
                here = crumbs + [f"{kind} {child.name}"]
                doc = ast.get_docstring(child)
                body = child.body
                if doc and body and isinstance(body[0], ast.Expr) and child.end_lineno:
                    first = doc.strip().split("\n\n")[0]
                    q = clean_prose(first)
                    ds, de = body[0].lineno, body[0].end_lineno
                    start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                    src = lines[start - 1:ds - 1] + lines[de:child.end_lineno]
                    if len(src) > 1:
                        yield child.name, q, " > ".join([path] + here), src
                yield from visit(child, here)

    yield from visit(tree, [])


# ---- C-like (Go, Rust, JavaScript, TypeScript, Java) ---------------------

def block_end(text, start):
    """Index just past the brace block opening at or after `start`, skipping strings and comments."""
    depth, i, n = 0, text.find("{", start), len(text)
    if i < 0:
        return -1
    while i < n:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c == "'":
            m = re.match(r"'(\\.[^']{0,8}|[^\\'])'", text[i:i + 12])
            if m:
                i += m.end() - 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 1
        i += 1
    return -1


DECL = {
    "go": re.compile(r"^func\s+(\([^)]*\)\s*)?(?P<name>\w+)"),
    "rust": re.compile(r"^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern\s+\"\w+\")\s+)*(fn|struct|enum|trait|impl)\s+(?P<name>\w+)"),
    "java": re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*((public|protected|private|static|final|abstract|synchronized|native|default)\s+)*"
                       r"(class\s+|interface\s+|enum\s+|record\s+|<[^>]+>\s+)?([\w.<>\[\],? ]+\s+)?(?P<name>\w+)\s*[({<]"),
    "javascript": re.compile(r"^\s*(export\s+)?(default\s+)?(async\s+)?(function\s*\*?\s*(?P<name>\w+)|class\s+(?P<cls>\w+)"
                             r"|(const|let|var)\s+(?P<var>\w+)\s*=\s*(async\s+)?(function|\([^)]*\)\s*=>|\w+\s*=>)"
                             r"|(static\s+)?(async\s+)?(get\s+|set\s+)?(?P<meth>\w+)\s*\([^)]*\)\s*\{"
                             r"|(?P<prop>\w+)\s*:\s*(async\s+)?function)"),
}
DECL["typescript"] = DECL["javascript"]
JAVA_KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "new", "throw", "else", "synchronized", "try"}


def doc_before(lines, i, lang):
    """The doc comment lines directly above line i (no blank line between), or None."""
    j = i - 1
    while j >= 0 and lang in ("java", "rust") and re.match(r"^\s*(@\w|#\[)", lines[j]):
        j -= 1  # annotations and attributes sit between doc and declaration
    if lang == "go" or lang == "rust":
        marker = "//" if lang == "go" else "///"
        k = j
        while k >= 0 and lines[k].strip().startswith(marker) and not (lang == "go" and lines[k].strip().startswith("//go:")):
            k -= 1
        if k == j:
            return None
        return [l.strip()[len(marker):] for l in lines[k + 1:j + 1]], k + 1
    if j < 0 or not lines[j].strip().endswith("*/"):
        return None
    k = j
    while k >= 0 and "/**" not in lines[k]:
        if k < j - 80 or ("/*" in lines[k] and "/**" not in lines[k]):
            return None
        k -= 1
    if k < 0:
        return None
    body = [re.sub(r"^\s*(/\*\*|\*/|\*)?", "", l).replace("*/", "") for l in lines[k:j + 1]]
    return body, k


def mine_clike(path, text, lang):
    lines = text.split("\n")
    offsets = [0]
    for l in lines:
        offsets.append(offsets[-1] + len(l) + 1)
    decl = DECL[lang]
    for i, line in enumerate(lines):
        m = decl.match(line)
        if not m:
            continue
        name = next((m.group(g) for g in ("name", "cls", "var", "meth", "prop") if g in decl.groupindex and m.group(g)), None)
        if not name or name in JAVA_KEYWORDS:
            continue
        found = doc_before(lines, i, lang)
        if not found:
            continue
        doc, doc_start = found
        prose = drop_name_lead(doc_prose(doc), name)
        end = block_end(text, offsets[i])
        if end < 0:
            continue
        last = text.count("\n", 0, end)
        if last - i > 400:
            continue
        # Attributes/annotations between the doc and the declaration stay with the code.
        attr_start = doc_start + len(doc) if lang in ("go", "rust") else next(
            k + 1 for k in range(i - 1, -2, -1) if k < 0 or lines[k].strip().endswith("*/"))
        src = lines[attr_start:last + 1]
        yield name, prose, f"{path} > {name}", src


# ---- driver ---------------------------------------------------------------

INSTALL_PREFIX = re.compile(r"^(usr/lib/python3/dist-packages|usr/share/gocode/src|usr/share/cargo/registry|usr/share/nodejs|usr/lib/nodejs|usr/share/javascript)/")


def mine_file(path, text, lang):
    path = INSTALL_PREFIX.sub("", path)  # breadcrumbs should look like repository paths
    gen = mine_python(path, text) if lang == "python" else mine_clike(path, text, lang)
    for name, query, crumb, src in gen:
        query = query[:MAX_QUERY_CHARS]
        if not good_query(query):
            continue
        code = "\n".join(src[:MAX_CODE_LINES])
        if len(code.strip()) < 30:
            continue
        yield {"lang": lang, "path": path, "name": name, "query": query, "code": crumb + "\n" + code}


def members_of_deb(deb):
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    with tarfile.open(fileobj=proc.stdout, mode="r|*") as tar:
        for member in tar:
            if member.isfile() and member.size <= MAX_FILE_BYTES:
                ext = os.path.splitext(member.name)[1]
                if ext in EXT_LANG:
                    f = tar.extractfile(member)
                    if f:
                        yield member.name.lstrip("./"), f.read()
    proc.wait()


def members_of_src_zip(deb):
    """openjdk-*-source ships one src.zip inside the package."""
    for name, data in members_of_deb_raw(deb, ".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for info in z.infolist():
                if info.filename.endswith(".java") and info.file_size <= MAX_FILE_BYTES:
                    yield info.filename, z.read(info)


def members_of_deb_raw(deb, suffix):
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    with tarfile.open(fileobj=proc.stdout, mode="r|*") as tar:
        for member in tar:
            if member.isfile() and member.name.endswith(suffix):
                yield member.name, tar.extractfile(member).read()
    proc.wait()


def main():
    debs_dir, out_path = sys.argv[1], sys.argv[2]
    seen_q, seen_c, counts = set(), set(), {}
    with open(out_path, "w") as out:
        for deb in sorted(os.listdir(debs_dir)):
            if not deb.endswith(".deb"):
                continue
            pkg = deb.split("_")[0]
            members = members_of_src_zip if pkg.startswith("openjdk") else members_of_deb
            n = 0
            for path, data in members(os.path.join(debs_dir, deb)):
                if BENCH_PATH.search(path) or ".min." in path or "/test" in path.lower():
                    continue
                text = data.decode("utf-8", "replace")
                if text.count("\n") < 3 or max(map(len, text.split("\n"))) > 1000:
                    continue  # minified or generated
                for rec in mine_file(path, text, EXT_LANG[os.path.splitext(path)[1]]):
                    kq = hashlib.sha1(rec["query"].lower().encode()).digest()
                    kc = hashlib.sha1(rec["code"].split("\n", 1)[1].encode()).digest()
                    if kq in seen_q or kc in seen_c:
                        continue
                    seen_q.add(kq)
                    seen_c.add(kc)
                    rec["pkg"] = pkg
                    out.write(json.dumps(rec) + "\n")
                    n += 1
            counts[pkg] = n
            print(f"{pkg}\t{n}", file=sys.stderr, flush=True)
    print(f"total\t{sum(counts.values())}", file=sys.stderr)


if __name__ == "__main__":
    main()
