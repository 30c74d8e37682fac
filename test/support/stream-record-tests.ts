// The tests every provider stream golden case runs on what its assembler gives:
// what normalize takes (assembled.json), the response object convert writes
// (record.json), that object against the schema, and each loss in its place.
import { expect, test } from "vitest";
import type { AssembledResponse } from "../../src/models/assembled-response.js";
import { resolve, tokensOf } from "./json-pointer.js";
import { specErrors } from "./spec-validator.js";

export interface StreamGolden {
  events: Array<{ line: number; event: unknown }>;
  assembled: unknown;
  record: unknown;
}

const portable = (values: unknown) => (Array.isArray(values) ? values.filter((value) => !String((value as { type?: unknown } | null)?.type).includes(":")) : values);

export function streamRecordTests(golden: StreamGolden, assemble: (events: StreamGolden["events"]) => AssembledResponse[]): void {
  test("assembling gives assembled.json", () => {
    expect(assemble(golden.events).map(({ message: _message, record: _record, ...response }: AssembledResponse & { message?: unknown }) => response)).toStrictEqual(golden.assembled);
  });

  test("the response object convert writes of each response, and its losses, are record.json", () => {
    // `place` is where a field of the provider's response was said, which the losses of another envelope's step use.
    expect(assemble(golden.events).map((response) => (({ place: _place, ...record }) => record)(response.record!()))).toStrictEqual(golden.record);
  });

  test("the response object convert writes validates against the Open Responses schema", () => {
    const errors = assemble(golden.events).flatMap((response) => {
      const value = response.record!().value;
      return specErrors("ResponseResource", { ...value, output: portable(value.output) });
    });
    expect(errors).toEqual([]);
  });

  test("every loss, of what normalize writes and of the response object, points into the event on its line, or a synthesized one into the object", () => {
    const byLine = new Map(golden.events.map(({ line, event }) => [line, event]));
    const dangling = assemble(golden.events).flatMap((response) => {
      const record = response.record!();
      return [...response.losses, ...record.losses].filter((loss) => !resolve(loss.code === "synthesized" ? record.value : byLine.get(loss.line), tokensOf(loss.path)).found);
    });
    expect(dangling).toEqual([]);
  });
}
