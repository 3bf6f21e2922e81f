/**
 * Method names that, called on a receiver of unknown type, are almost always the runtime's own
 * (a dict's `pop`, an array's `push`, a `List`'s `add`, an `io.Closer`'s `Close`). Matching them
 * by name to the repository's methods of the same name would report callers that are not; such
 * calls stay unresolved unless scope or imports say otherwise. Dunder methods are never matched
 * by name either (they are called by the runtime, not by name).
 */
const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

const BUILTIN_METHODS: Record<string, ReadonlySet<string>> = {
  python: words(`
    append extend insert remove pop clear index count sort reverse copy get items keys values update setdefault popitem
    add discard union intersection difference issubset issuperset join split rsplit strip lstrip rstrip replace startswith
    endswith lower upper format encode decode find rfind splitlines partition rpartition title capitalize zfill ljust rjust
    center isdigit isalpha isspace isidentifier read write close readline readlines seek tell flush fileno exists open mkdir
    match search sub group groups`),
  js: words(`
    push pop shift unshift slice splice map filter reduce reduceRight forEach find findIndex some every includes indexOf
    lastIndexOf join concat sort reverse keys values entries has get set delete add clear then catch finally toString
    valueOf hasOwnProperty call apply bind split replace replaceAll trim trimStart trimEnd toLowerCase toUpperCase startsWith
    endsWith match matchAll test exec charAt charCodeAt codePointAt substring substr padStart padEnd repeat flat flatMap fill
    at toFixed toISOString getTime json text end write send status setHeader getHeader`),
  jvm: words(`
    equals hashCode toString getClass size isEmpty get put add remove contains containsKey containsValue iterator hasNext
    next length charAt substring append valueOf keySet entrySet values addAll removeAll clear stream map filter collect
    forEach orElse orElseGet orElseThrow isPresent ifPresent compareTo close trim split startsWith endsWith indexOf format
    println print printf getKey getValue toArray asList of sort replace toLowerCase toUpperCase getMessage getName
    intValue longValue doubleValue booleanValue isAssignableFrom getSimpleName notify wait`),
  go: words(`Error String Close Read Write Lock Unlock RLock RUnlock Wait Done Add Err Deadline Value Load Store Swap
    CompareAndSwap Len Less Cause Unwrap Seek Flush ReadFrom WriteTo`),
  rust: words(`
    clone to_string to_owned unwrap expect iter iter_mut into_iter map collect push pop len is_empty as_ref as_mut as_str
    get get_mut insert remove contains ok err unwrap_or unwrap_or_else unwrap_or_default and_then map_err borrow borrow_mut
    lock write read next join split trim starts_with ends_with into from push_str extend sort filter find any all chars
    bytes lines take skip rev enumerate zip cloned copied sum count min max first last keys values entry or_insert
    or_default fmt eq ne cmp partial_cmp hash is_some is_none is_ok is_err as_slice as_bytes send recv`),
  csharp: words(`
    ToString Equals GetHashCode GetType Add Remove Contains Count Any All Where Select First FirstOrDefault Last ToList
    ToArray ToDictionary Dispose Append Trim Split Substring StartsWith EndsWith Format Replace Clear TryGetValue
    ContainsKey Keys Values IndexOf Insert Join Wait Result ConfigureAwait`),
  ruby: words(`
    each map select reject each_with_index push pop shift join split to_s to_i to_f to_sym to_a to_h keys values merge
    fetch first last size length count include? empty? nil? is_a? respond_to? send freeze dup tap then inject reduce sort
    sort_by group_by find detect any? all? compact flatten uniq strip gsub sub`),
};

export function isBuiltinMethod(family: string, name: string): boolean {
  return /^__\w+__$/.test(name) || (BUILTIN_METHODS[family]?.has(name) ?? false);
}
