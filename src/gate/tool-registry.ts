// The tools a journal's calls are checked against: a JSON Schema per function
// name, and the names the `tool_choice` in force allows.
//
// | source                                                    | gives                                 |
// |-----------------------------------------------------------|---------------------------------------|
// | tools[] Chat `{type:"function", function:{name, parameters}}` | name -> parameters                 |
// | tools[] Open Responses `{type:"function", name, parameters}`  | name -> parameters                 |
// | tools[] of another kind (`web_search`, `custom`, `mcp`,   | a tool no function_call can run: a    |
// |   an extension `acme:search`)                             |   call naming it is refused, and why  |
// | legacy Chat `functions[]` `{name, parameters}`            | name -> parameters                    |
// | a function without `parameters` (or `null`)               | NO_PARAMETERS: only `{}` validates     |
// | tool_choice absent, null, "auto", "required"              | every name                            |
// | tool_choice "none"                                        | no name                               |
// | `{type:"function", name}` / `{type:"function", function:{name}}` | that name only                 |
// | allowed_tools, either form                                | its function names (mode "none": none) |
// | a hosted or custom tool choice (`{type:"file_search"}`…)  | no name: the model was forced to another tool |
// | legacy Chat `function_call` (when no tool_choice)         | "none", "auto" or `{name}` as above   |
//
// Two scopes. What is added before `pin()` (the `--tools FILE` of the gate) holds
// for the whole journal: a journal request body can neither redefine a pinned
// tool (one the file refuses included) nor widen the pinned allowed set; its own choice narrows it until the next
// request body. A tools file that is a request body letting its response make
// one call (`parallel_tool_calls` false, Anthropic's `disable_parallel_tool_use`)
// says so of every response of the journal, as a journal request body says it
// of the responses after it. Everything after `pin()` is the journal's: a later definition of
// a name replaces an earlier one, and each request body's choice replaces the
// previous one (a body without tool_choice means "auto").
//
// A tools file must be read whole: a part that cannot be read throws, naming
// `where` and the field. A journal's request body is read as far as it can be
// (read-request-tools.ts): what cannot be read is returned as problems, and
// never makes the registry looser than what was read. A definition that cannot
// be read refuses the calls of its name until a later one can be; a choice that
// cannot be read allows no function, and tools of which some cannot be named
// allow only the functions the body defines readably, until the next request
// body. A record that carries tools or a choice but is not read as a request
// body (`narrow`) only narrows.
import { unreadableReason } from "../journal/unreadable-request.js";
import { readSchemaText } from "../journal/schema-text.js";
import type { InexactSchemaNumber } from "../journal/inexact-numbers.js";
import type { ToolSchema } from "./schema.js";
import { describeLimitSpelledOtherwise } from "../models/limit-spelled-otherwise.js";
import { describeValue as describe, isPlainObject } from "../models/json-value.js";
import { oneCallFlag, shownFlag } from "../models/one-call-flag.js";
import { foldName } from "../models/folded-name.js";
import { readConvertedTools, readRequestTools, readToolsArray, type EnvelopeToolsReader, type OtherTool, type ToolsRead } from "./read-request-tools.js";
import { readToolChoice } from "./read-tool-choice.js";

export { NO_PARAMETERS, type EnvelopeTools, type EnvelopeToolsReader, type OtherTool } from "./read-request-tools.js";

/** The names a choice allows; `undefined` allows every name. `where` starts the sentence that says so. */
export interface Choice {
  names: ReadonlySet<string> | undefined;
  where: string;
}

/** What a registry holds: `ToolRegistry.data()`. */
export interface ToolRegistryData {
  schemas: ReadonlyMap<string, ToolSchema>;
  otherTools: ReadonlyMap<string, OtherTool>;
  unreadable: ReadonlyMap<string, string>;
  pinnedNames: ReadonlySet<string>;
  pinnedChoices: readonly Choice[];
  /** The tools file's word that each response makes one call at most (`ToolRegistry.pinnedOneCall`). */
  pinnedOneCall?: string;
  choices: readonly Choice[];
  namesByFold: ReadonlyMap<string, ReadonlySet<string>>;
}

const LISTED_NAMES_IN_DETAIL = 5;

export class ToolRegistry {
  private readonly schemas = new Map<string, ToolSchema>();
  private readonly otherTools = new Map<string, OtherTool>();
  /** Names whose latest definition could not be read, with why: their calls are refused. */
  private readonly unreadable = new Map<string, string>();
  private readonly pinnedNames = new Set<string>();
  private pinnedChoices: readonly Choice[] = [];
  /** The tools file's word that each response makes one call at most, as a sentence's start: it holds for the whole journal. */
  private pinnedOneCallSaid: string | undefined;
  /** The pinned names by their folded form (`foldName`), made when first asked. */
  private foldedPinned: Map<string, string> | undefined;
  /** Every name a journal's request body defined, by its folded form (`foldName`): two of one form are refused. */
  private readonly namesByFold = new Map<string, Set<string>>();
  /** `foldName` of names met lately: the same few tools come back in request body after request body. */
  private readonly folds = new Map<string, string>();
  /** The latest request body's tools as read, and where it is. */
  private lastBody: { read: ToolsRead; where: string } | undefined;
  /** What the latest request body (and records after it that only narrow) allow: every one must allow a name. */
  private choices: Choice[] = [];

  /** A registry holding what `data()` gave, in this thread or another (`gate --jobs`). */
  static fromData(data: ToolRegistryData): ToolRegistry {
    const registry = new ToolRegistry();
    for (const [name, schema] of data.schemas) registry.schemas.set(name, schema);
    for (const [name, tool] of data.otherTools) registry.otherTools.set(name, tool);
    for (const [name, why] of data.unreadable) registry.unreadable.set(name, why);
    for (const name of data.pinnedNames) registry.pinnedNames.add(name);
    registry.pinnedChoices = [...data.pinnedChoices];
    registry.pinnedOneCallSaid = data.pinnedOneCall;
    registry.choices = [...data.choices];
    for (const [fold, names] of data.namesByFold) registry.namesByFold.set(fold, new Set(names));
    return registry;
  }

  /** What the registry holds, as data a thread can be sent (Maps, Sets and plain objects). */
  data(): ToolRegistryData {
    return {
      schemas: new Map(this.schemas),
      otherTools: new Map(this.otherTools),
      unreadable: new Map(this.unreadable),
      pinnedNames: new Set(this.pinnedNames),
      pinnedChoices: [...this.pinnedChoices],
      ...(this.pinnedOneCallSaid === undefined ? {} : { pinnedOneCall: this.pinnedOneCallSaid }),
      choices: [...this.choices],
      namesByFold: new Map([...this.namesByFold].map(([fold, names]) => [fold, new Set(names)])),
    };
  }

  /**
   * A tools file given as its JSON text (`fromToolsFile`), read as `gate --tools`
   * reads it: a name given twice, or a number a double reads as another (a bound
   * such as 0.29999999999999999), throws, where parsed values would already have
   * lost one reading.
   */
  static fromToolsText(text: string, where: string, readEnvelope?: EnvelopeToolsReader): ToolRegistry {
    const read = readSchemaText(text, `tools file ${where}`);
    if (!read.ok) throw new Error(read.message);
    return ToolRegistry.fromToolsFile(read.value, where, readEnvelope);
  }

  /**
   * A registry built from the `--tools FILE` of the gate: a tools array in either
   * envelope, or a request body of either envelope; with `readEnvelope`, also
   * the tools of another envelope (Anthropic, Gemini, Bedrock), as that reader
   * finds them. It is pinned. A part that cannot be read throws, with every
   * problem, one a line.
   */
  static fromToolsFile(value: unknown, where: string, readEnvelope?: EnvelopeToolsReader): ToolRegistry {
    const registry = new ToolRegistry();
    const foreign = readEnvelope?.(value);
    if (foreign !== undefined) registry.applyWhole(readConvertedTools(foreign, where), where);
    else if (Array.isArray(value)) registry.addTools(value, where);
    else if (isPlainObject(value)) registry.applyWhole(readRequestTools(value, where), where);
    else throw new Error(`${where}: expected a tools array or a request body (a JSON object), found ${describe(value)}`);
    registry.pinnedOneCallSaid = oneCallSaid(value, `the tools file ${where}`);
    registry.pin();
    return registry;
  }

  /** Adds the tools of a tools array, in either envelope; a part that cannot be read throws, and nothing is added. */
  addTools(tools: unknown, where: string): void {
    const read = readToolsArray(tools, where);
    if (read.problems.length > 0) throw new Error(read.problems.join("\n"));
    this.define(read);
  }

  /**
   * Applies a request body of either envelope: its `tools` (and legacy
   * `functions`) are added, and its `tool_choice` (or legacy `function_call`)
   * becomes the choice in force. Returns what could not be read, one sentence
   * each; the calls it governs are refused (see the top of this file).
   * `numbers`: those of the body's line that a schema judges by and a double
   * reads as others; a definition that holds one is refused.
   */
  addRequestBody(body: unknown, where: string, readEnvelope?: EnvelopeToolsReader, numbers?: readonly InexactSchemaNumber[]): string[] {
    const unreadable = unreadableReason(body);
    this.lastBody = undefined;
    if (unreadable !== undefined) {
      this.choices = [{ names: new Set(), where: `${where}, which cannot be read and may be a request body whose choice cannot be known,` }];
      return [`${unreadable}; it may be a request body (it names a request's tools, or was not read at all), so no function may run until the next request body`];
    }
    if (!isPlainObject(body)) {
      this.choices = [{ names: new Set(), where: `${where}, a request body that is not an object,` }];
      return [`${where}: a request body must be a JSON object, found ${describe(body)}`];
    }
    const read = readRequestTools(body, where, readEnvelope, numbers);
    this.lastBody = { read, where };
    this.define(read);
    const { names, field, whole } = read.choice;
    const source = field === "" ? where : `${field} of ${where}`;
    this.choices = [{ names, where: whole ? source : `${source} cannot all be read, so it` }];
    if (read.unknownTools) this.choices.push({ names: new Set(read.functions.map(({ name }) => name)), where: `${where} has tools that cannot be named; until the next request body, it` });
    return read.problems;
  }

  /**
   * The tools the last request body lists, as a choice for the calls of the
   * response that answers it (a logged exchange's); undefined when it names some
   * that cannot be read. A request that lists none offered the model no tool,
   * so none of its response's calls may run: the tools an earlier request
   * defined, or a stored prompt's, are not this request's to know.
   */
  offeredByLastBody(): Choice | undefined {
    if (this.lastBody === undefined || this.lastBody.read.unknownTools) return undefined;
    const { read, where } = this.lastBody;
    const names = new Set([...read.functions.map(({ name }) => name), ...read.others.map(({ name }) => name), ...read.unreadable.keys()]);
    if (names.size === 0) return { names, where: `the request of ${where}, which its response answers, lists no tool: it offered the model none, and for that response's calls it` };
    return { names, where: `the request of ${where}, which its response answers, lists the tools it offered the model; for that response's calls, it` };
  }

  /**
   * A record that carries tools or a tool choice but is not read as a request
   * body: its choice narrows the one in force, never widens it, and the tools it
   * names are refused until a request body defines them again, since what it
   * makes of them cannot be known. Returns what could not be read.
   */
  narrow(fields: Record<string, unknown>, where: string, readEnvelope?: EnvelopeToolsReader): string[] {
    const read = readRequestTools(fields, where, readEnvelope);
    const refused = `${where}, a record not read as a request body, defines it`;
    for (const name of [...read.functions.map((fn) => fn.name), ...read.others.map((tool) => tool.name), ...read.unreadable.keys()]) this.refuse(name, refused);
    const { names, field } = read.choice;
    if (names !== undefined) this.choices.push({ names, where: `${field} of ${where}, a record not read as a request body,` });
    if (read.unknownTools) this.choices.push({ names: new Set(), where: `${where}, a record not read as a request body, has tools that cannot be named; until the next request body, it` });
    return read.problems;
  }

  /**
   * What a response object says of its own request: the `tool_choice` and the
   * `tools` it repeats (the Responses API writes both), as choices that hold
   * for that response's calls alone, beside the choice in force. An empty
   * `tools`, or a `tool_choice` of null, says nothing: a converter writes them
   * where its source had none. `problems`: what could not be read.
   */
  static responseChoices(fields: Record<string, unknown>, where: string): { choices: Choice[]; problems: string[] } {
    const problems: string[] = [];
    const choices: Choice[] = [];
    const said = `${where}, the response's own record of its request,`;
    const misspelled = fields.misspelled_limit as { path: string; name: string } | undefined;
    if (misspelled !== undefined) {
      problems.push(`${where}: ${describeLimitSpelledOtherwise(misspelled, "response")}`);
      choices.push({ names: new Set(), where: `${misspelled.path} of ${said} cannot be read, so it` });
    }
    if (fields.tool_choice !== undefined && fields.tool_choice !== null) {
      const choice = readToolChoice(fields.tool_choice, where, problems);
      if (choice.names !== undefined) choices.push({ names: choice.names, where: `tool_choice of ${said}` });
    }
    if (Array.isArray(fields.tools) && fields.tools.length > 0) {
      const read = readToolsArray(fields.tools, where);
      problems.push(...read.problems);
      choices.push({ names: new Set(read.functions.map(({ name }) => name)), where: `the tools of ${said}` });
    }
    return { choices, problems };
  }

  /** From now on, what is defined holds for the whole journal (see the top of this file). */
  pin(): void {
    for (const name of this.names()) this.pinnedNames.add(name);
    // A name the tools file refuses (two that fold to one, a namespace's
    // function) is pinned refused: the file speaks of that tool, so a journal's
    // looser definition of it must not take its place.
    for (const name of this.unreadable.keys()) this.pinnedNames.add(name);
    this.foldedPinned = undefined;
    // The pinned names are compared with the journal's apart (refuseLookalike).
    this.namesByFold.clear();
    this.pinnedChoices = this.choices;
    this.choices = [];
  }

  /** The tools file's word that each response of the journal makes one call at most, as a sentence's start; undefined when it says none. */
  get pinnedOneCall(): string | undefined {
    return this.pinnedOneCallSaid;
  }

  /** The JSON Schema of a function's parameters, or `undefined` when no tool of that name is known. */
  schemaFor(name: string): ToolSchema | undefined {
    return this.schemas.get(name);
  }

  /** Whether the choices in force let a call of `name` run. */
  isAllowed(name: string): boolean {
    return this.notAllowedReason(name) === undefined;
  }

  /** No function may run until the next request body sets a choice: `where` says why, as a sentence's subject. */
  allowNone(where: string): void {
    this.choices = [{ names: new Set(), where }];
  }

  /** No function may run for the rest of the journal, whatever a request body says: `where` says why, as a sentence's subject. */
  allowNoneForGood(where: string): void {
    this.pinnedChoices = [...this.pinnedChoices, { names: new Set(), where }];
  }

  /** Why `name` may not run, in a sentence; `undefined` when it may. `also`: choices that hold for this call beside those in force (responseChoices). */
  notAllowedReason(name: string, also: readonly Choice[] = []): string | undefined {
    const unreadable = this.unreadable.get(name);
    if (unreadable !== undefined) return unreadable;
    const other = this.schemas.has(name) ? undefined : this.otherTools.get(name);
    if (other !== undefined) return describeOtherTool(other);
    for (const choices of [this.pinnedChoices, this.choices, also]) {
      for (const choice of choices) {
        if (choice.names !== undefined && !choice.names.has(name)) return `${choice.where} ${describeNames(choice.names)}`;
      }
    }
    return undefined;
  }

  /**
   * The names of the known tools: every function, then every other tool (by
   * the name its calls carry) that no function shares a name with.
   */
  names(): string[] {
    const names = [...this.schemas.keys()];
    for (const name of this.otherTools.keys()) if (!this.schemas.has(name)) names.push(name);
    return names;
  }

  /** The hosted, custom, MCP and extension tools: tools that no function_call runs. */
  others(): OtherTool[] {
    return [...this.otherTools.values()];
  }

  get size(): number {
    return this.schemas.size;
  }

  /** A tools file's request body: every part must be read. */
  private applyWhole(read: ToolsRead, where: string): void {
    if (read.problems.length > 0) throw new Error(read.problems.join("\n"));
    this.define(read);
    const { names, field } = read.choice;
    this.choices = [{ names, where: field === "" ? where : `${field} of ${where}` }];
  }

  private define(read: ToolsRead): void {
    const clashing = this.clashingNames([...read.others.map((tool) => tool.name), ...read.functions.map((fn) => fn.name), ...read.unreadable.keys()]);
    // Within one tools array a function wins over another tool known only by its
    // type (`web_search`): a function_call of that name is the function's. One
    // that writes the function's name is refused by its reader (read-request-tools.ts).
    for (const tool of read.others) {
      if (this.pinnedNames.has(tool.name)) continue;
      if (this.refuseLookalike(tool.name)) continue;
      this.otherTools.set(tool.name, tool);
      this.schemas.delete(tool.name);
      this.unreadable.delete(tool.name);
    }
    for (const { name, schema } of read.functions) {
      if (this.pinnedNames.has(name)) continue;
      if (this.refuseLookalike(name)) continue;
      this.schemas.set(name, schema);
      this.otherTools.delete(name);
      this.unreadable.delete(name);
    }
    // Last: a name also defined readably in the same body has no single definition.
    for (const [name, why] of read.unreadable) this.refuse(name, why);
    for (const [name, like] of clashing) this.refuse(name, `the journal defines it and "${like}", which read as one name once case, spacing and Unicode forms are folded: a replayer that matches names that loosely could run either with the other's arguments`);
  }

  /** `foldName` of a name, kept: the same few tools come back in request body after request body. */
  private foldOf(name: string): string {
    let fold = this.folds.get(name);
    if (fold === undefined) {
      if (this.folds.size >= 4096) this.folds.clear();
      fold = foldName(name);
      this.folds.set(name, fold);
    }
    return fold;
  }

  /**
   * The names a journal defines, now or before, that read as another it defines
   * once folded (`delete_file` and `delete_file\u200b`, `Delete_File`), each with
   * one it reads as: none of them is taken. Pinned names are compared apart
   * (refuseLookalike), and keep their definition.
   */
  private clashingNames(incoming: readonly string[]): Map<string, string> {
    const clashing = new Map<string, string>();
    for (const name of incoming) {
      const fold = this.foldOf(name);
      // A name that reads as a pinned one is refused for that (refuseLookalike).
      if (this.pinnedByFold(fold) !== undefined) continue;
      let names = this.namesByFold.get(fold);
      if (names === undefined) this.namesByFold.set(fold, (names = new Set()));
      names.add(name);
      if (names.size < 2) continue;
      for (const one of names) {
        const other = [...names].find((candidate) => candidate !== one)!;
        if (!this.pinnedNames.has(one)) clashing.set(one, other);
      }
    }
    return clashing;
  }

  /**
   * A journal's tool whose name reads as a pinned one once case, spacing,
   * invisible characters and Unicode compatibility forms are folded
   * (`GET_REPORT`, `get_report\u200b` beside a pinned `get_report`) is refused: a
   * replayer that matches names that loosely would run the pinned tool with
   * arguments its schema never judged.
   */
  private refuseLookalike(name: string): boolean {
    const pinned = this.pinnedByFold(this.foldOf(name));
    if (pinned === undefined) return false;
    this.refuse(name, `a request body of the journal defines it, and it reads as the tool "${pinned}" of the tools given for the whole journal once case, spacing and Unicode forms are folded`);
    return true;
  }

  /** The pinned name of a folded form, if one folds to it. */
  private pinnedByFold(fold: string): string | undefined {
    if (this.pinnedNames.size === 0) return undefined;
    this.foldedPinned ??= new Map([...this.pinnedNames].map((pinned) => [foldName(pinned), pinned]));
    return this.foldedPinned.get(fold);
  }

  /** Calls of `name` are refused, saying why, until a definition of it can be read; a pinned tool keeps the file's definition. */
  private refuse(name: string, why: string): void {
    if (this.pinnedNames.has(name)) return;
    this.schemas.delete(name);
    this.otherTools.delete(name);
    this.unreadable.set(name, why);
  }
}

function describeOtherTool(tool: OtherTool): string {
  const kind = tool.type === "custom" ? "a custom tool" : tool.type.includes(":") ? "an extension tool" : tool.type === "mcp" ? "an MCP tool" : "a hosted tool";
  // An extension tool may be called through items of its own (a server tool) or
  // through the provider's ordinary call block (Anthropic's client tools, such as
  // bash or memory, by tool_use): either way its arguments are the provider's.
  if (kind === "an extension tool") return `${tool.where} defines it as ${kind} (type "${tool.type}"), whose calls and arguments its provider defines: no function schema is known to judge a function_call by`;
  return `${tool.where} defines it as ${kind} (type "${tool.type}"), which is called through items of its own, never through a function_call`;
}

function describeNames(names: ReadonlySet<string>): string {
  if (names.size === 0) return "allows no function";
  const listed = [...names].slice(0, LISTED_NAMES_IN_DETAIL).map((name) => `"${name}"`);
  const more = names.size > LISTED_NAMES_IN_DETAIL ? ` and ${names.size - LISTED_NAMES_IN_DETAIL} more` : "";
  return `allows only ${listed.join(", ")}${more}`;
}

/** The flag by which `body` lets its response make one call (one-call-flag.ts), as a sentence's start naming `whose`. */
export function oneCallSaid(body: unknown, whose: string): string | undefined {
  const flag = oneCallFlag(body);
  if (flag === undefined) return undefined;
  const value = flag.boolean ? (flag.value === false ? " false" : "") : ` ${shownFlag(flag.value)} (not a boolean)`;
  return `${flag.name}${value} in ${whose}`;
}
