/**
 * Argument schemas whose validation messages say what to send instead: the
 * SDK reports them as "Invalid arguments for tool <name>: <message> at <arg>".
 */
import { z } from 'zod';

const says = (message: string) => ({ error: message });

/** A required string with something in it. */
export function text(name: string, example: string) {
  const message = `${name} must be a non-empty string, e.g. ${example}`;
  return z.string(says(message)).trim().min(1, says(message));
}

export function optionalText(name: string, example: string) {
  return z.string(says(`${name} must be a string, e.g. ${example}`)).optional();
}

export function positiveInt(name: string, example: number) {
  const message = `${name} must be a positive whole number (not a string), e.g. ${example}`;
  return z.number(says(message)).int(says(message)).min(1, says(message)).optional();
}

export function flag(name: string) {
  return z.boolean(says(`${name} must be true or false (not a string)`)).optional();
}

export function stringList(name: string, example: string) {
  const message = `${name} must be an array of strings, e.g. ${example}`;
  return z.array(z.string(says(message)), says(message)).optional();
}

export function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, says(`${name} must be one of ${values.join(', ')}`));
}
