// `--report FILE`: losses and errors as JSONL, one record per line, each with the
// input line it concerns. Written atomically, like `--out`.
import { atomicFileOutput, type JournalOutput } from "../journal/write.js";
import { write } from "./io.js";

export interface ReportRecord {
  source?: string;
  line: number;
  path: string;
  code: string;
  detail: string;
}

export class ReportWriter {
  private readonly output: JournalOutput;

  constructor(path: string) {
    this.output = atomicFileOutput(path);
  }

  write(record: ReportRecord): Promise<void> | undefined {
    return write(this.output.stream, JSON.stringify(record) + "\n");
  }

  async finish(): Promise<void> {
    await this.output.finish?.();
  }

  commit(): Promise<void> {
    return this.output.commit();
  }

  abort(): Promise<void> {
    return this.output.abort();
  }

  failure(): Error | undefined {
    return this.output.failure?.();
  }
}
