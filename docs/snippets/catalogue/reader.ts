// Usage: node reader.js catalogue.json BACKEND CODE
import { readFileSync } from "node:fs";

interface Decision {
  kind: string; category: string; retryable: boolean; action: string;
  retry_safety: string; retry_after_ms: number | null;
  tool_error_type: string; jsonrpc_code: number;
}
interface Backend { name: string; aliases: string[]; codes: Record<string, Decision> }
interface Catalogue {
  schema_version: number;
  kinds: Record<string, Omit<Decision, "kind">>;
  backends: Backend[];
}

const [path, backend, code] = process.argv.slice(2);
const catalogue: Catalogue = JSON.parse(readFileSync(path, "utf8"));
if (catalogue.schema_version !== 1) throw new Error("unknown catalogue schema_version");

export function decide(db: string, native: string): Decision {
  const name = db.toLowerCase();
  const found = catalogue.backends.find((b) => b.name === name || b.aliases.includes(name));
  // A code the catalogue does not list: the Kind table's "unknown" row.
  return found?.codes[native] ?? { ...catalogue.kinds["unknown"], kind: "unknown" };
}

console.log(JSON.stringify(decide(backend, code)));
