/**
 * Reading and editing client configs that may be JSON with comments (VS Code
 * and Claude Code allow them): edits go through jsonc-parser's modify, so the
 * user's comments, order and formatting survive.
 */
import { applyEdits, format, modify, parse, printParseErrorCode, type FormattingOptions, type JSONPath, type ParseError } from 'jsonc-parser';

export type FileAction = 'create' | 'update' | 'keep' | 'skip';

/** What init will do to one file: its new text (for create and update) and a note saying why. */
export interface FileChange {
  action: FileAction;
  content?: string;
  note: string;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The parsed value, or a sentence saying where the text stops being JSON(C). */
export function parseJsonc(text: string): { value: unknown } | { error: string } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length === 0) return { value };
  const first = errors[0]!;
  const line = text.slice(0, first.offset).split('\n').length;
  return { error: `not valid JSON (${printParseErrorCode(first.error)} at line ${line})` };
}

/** Indentation and line ends as the file already has them. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  const tabs = indent?.startsWith('\t') ?? false;
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : (indent?.length ?? 2), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * `text` with `value` set at `path` (an array index of -1 appends), everything
 * else as it was. Only the inserted text is formatted: modify's own
 * formatting would also reflow the siblings of the new entry.
 */
export function setIn(text: string, path: JSONPath, value: unknown): string {
  const isArrayInsertion = path[path.length - 1] === -1;
  const formattingOptions = formattingOf(text);
  const edits = modify(text, path, value, { isArrayInsertion });
  if (edits.length !== 1) return applyEdits(text, modify(text, path, value, { isArrayInsertion, formattingOptions }));
  const edited = applyEdits(text, edits);
  return applyEdits(edited, format(edited, { offset: edits[0]!.offset, length: edits[0]!.content.length }, formattingOptions));
}

/** A new JSON file's text. */
export function renderJson(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}
