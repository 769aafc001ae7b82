// Keep one `localdata-errors classify` running beside a Node program:
// one JSON line in, one JSON line out, in order.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const command = process.env.LOCALDATA_ERRORS ?? "localdata-errors";
const child = spawn(command, ["classify", "--format", "json", "--shape", "tool"]);
const waiting: ((answer: Record<string, unknown>) => void)[] = [];
createInterface({ input: child.stdout }).on("line", (line) => {
  waiting.shift()?.(JSON.parse(line)); // an answer, or {"input_error": ..., "line": ...}
});

export function classify(message: string, db?: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin.write(JSON.stringify({ message, db }) + "\n");
  });
}

classify("Deadlock found when trying to get lock", "mysql").then((answer) => {
  console.log(JSON.stringify(answer));
  child.stdin.end();
});
