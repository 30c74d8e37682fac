import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { NO_PARAMETERS, ToolRegistry } from "../../src/gate/tool-registry.js";
import { replayGate } from "../../src/gate/replay-gate.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const salesParameters = {
  type: "object",
  additionalProperties: false,
  required: ["region"],
  properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } },
};
const weatherParameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

const chatTools = [
  { type: "function", function: { name: "get_latest_sales_report", description: "", parameters: salesParameters, strict: true } },
  { type: "function", function: { name: "get_weather", parameters: weatherParameters } },
];
const responsesTools = [
  { type: "function", name: "get_latest_sales_report", description: null, parameters: salesParameters, strict: true },
  { type: "function", name: "get_weather", parameters: weatherParameters },
];

function allowedOf(registry: ToolRegistry, names: readonly string[]): Record<string, boolean> {
  return Object.fromEntries(names.map((name) => [name, registry.isAllowed(name)]));
}

describe("a Chat tools array", () => {
  test("registers each function's parameters under its name", () => {
    const registry = new ToolRegistry();
    registry.addTools(chatTools, "tools.json");
    expect(registry.names()).toEqual(["get_latest_sales_report", "get_weather"]);
    expect(registry.schemaFor("get_latest_sales_report")).toBe(salesParameters);
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
    expect(registry.schemaFor("send_email")).toBeUndefined();
  });

  test("a function without parameters takes no arguments", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "function", function: { name: "list_regions" } }], "tools.json");
    const schema = registry.schemaFor("list_regions");
    expect(schema).toEqual(NO_PARAMETERS);
    const call = { type: "function_call", call_id: "call_1", name: "list_regions", status: "completed", arguments: "{}" };
    expect(replayGate(call, schema).reason).toBe("ok");
    expect(replayGate({ ...call, arguments: "{\"region\":\"apac\"}" }, schema).reason).toBe("arguments_schema");
  });

  test("a tool without type that holds only its function, as Mistral writes them, is that function", () => {
    const registry = new ToolRegistry();
    const parameters = { additionalProperties: false, properties: {}, type: "object" };
    expect(registry.addRequestBody({ model: "pixtral-12b-latest", tool_choice: "auto", tools: [{ function: { description: "", name: "get_image", parameters } }] }, "line 1")).toEqual([]);
    expect(registry.names()).toEqual(["get_image"]);
    expect(registry.schemaFor("get_image")).toBe(parameters);
  });

  test("a function that gives its schema also in another envelope's field (Anthropic's input_schema) is refused: each reader takes its own", () => {
    const registry = new ToolRegistry();
    const definition = { name: "get_weather", parameters: { type: "object" }, input_schema: weatherParameters };
    expect(registry.addRequestBody({ model: "m", input: "weather?", tools: [{ type: "function", function: definition }] }, "line 1")).toEqual([
      "line 1: tools[0].function: the definition gives the schema of its arguments in parameters and input_schema, which readers of different envelopes each take one of",
    ]);
    expect(registry.schemaFor("get_weather")).toBeUndefined();
    expect(registry.notAllowedReason("get_weather")).toBe("tools[0].function of line 1 gives the schema of its arguments twice (parameters, input_schema)");
  });

  test("a custom tool is a tool no function_call runs, known by its name", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "custom", custom: { name: "run_sql", format: { type: "text" } } }], "tools.json");
    expect(registry.size).toBe(0);
    expect(registry.schemaFor("run_sql")).toBeUndefined();
    expect(registry.others()).toEqual([{ name: "run_sql", type: "custom", where: "tools[0] of tools.json" }]);
    expect(registry.notAllowedReason("run_sql")).toBe('tools[0] of tools.json defines it as a custom tool (type "custom"), which is called through items of its own, never through a function_call');
  });
});

describe("names that read as a pinned tool's", () => {
  test("a journal body's tool named like a tool of the tools file but for case, spacing, invisible characters or compatibility forms is refused; another name is its own", () => {
    const registry = ToolRegistry.fromToolsFile(responsesTools, "tools.json");
    const lookalikes = ["GET_WEATHER", "get_weather\u200b", " get_weather", "ｇｅｔ_ｗｅａｔｈｅｒ", "get_weather\u034f", "get_weather\ufe0f", "get_weather\u3164"];
    registry.addRequestBody({ model: "m", input: "hi", tools: [...lookalikes, "get_forecast"].map((name) => ({ type: "function", name, parameters: { type: "object" } })) }, "line 1");
    for (const name of lookalikes) {
      expect(registry.schemaFor(name)).toBeUndefined();
      expect(registry.notAllowedReason(name)).toBe('a request body of the journal defines it, and it reads as the tool "get_weather" of the tools given for the whole journal once case, spacing and Unicode forms are folded');
    }
    expect(registry.schemaFor("get_forecast")).toEqual({ type: "object" });
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
  });

  test("a name the tools file refuses (two that fold to one, a namespace's function) stays refused: a journal body's looser definition of it is not taken", () => {
    const registry = ToolRegistry.fromToolsFile(
      [
        { type: "function", name: "get_latest_sales_report", parameters: salesParameters },
        { type: "function", name: "Get_Latest_Sales_Report", parameters: salesParameters },
        { type: "function", name: "get_weather", namespace: "crm", parameters: weatherParameters },
        { type: "function", name: "list_regions" },
      ],
      "tools.json",
    );
    registry.addRequestBody({ model: "m", input: "hi", tools: ["get_latest_sales_report", "get_weather"].map((name) => ({ type: "function", name, parameters: { type: "object" } })) }, "line 1");
    expect([registry.schemaFor("get_latest_sales_report"), registry.schemaFor("get_weather")]).toEqual([undefined, undefined]);
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe(
      'the journal defines it and "Get_Latest_Sales_Report", which read as one name once case, spacing and Unicode forms are folded: a replayer that matches names that loosely could run either with the other\'s arguments',
    );
    expect(registry.notAllowedReason("get_weather")).toBe("tools[2] of tools.json defines it in namespace \"crm\", which a reader that does not know the field takes for the top-level function");
    expect(registry.schemaFor("list_regions")).toEqual(NO_PARAMETERS);
  });
});

describe("names of the journal's tools that read as one another", () => {
  const fn = (name: string, parameters: unknown = { type: "object" }) => ({ type: "function", name, parameters });
  const strict = { type: "object", properties: { path: { type: "string", pattern: "^/tmp/" } } };
  const clash = (name: string, other: string) =>
    `the journal defines it and "${other}", which read as one name once case, spacing and Unicode forms are folded: a replayer that matches names that loosely could run either with the other's arguments`;

  test("two in one body: neither is taken", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("delete_file", strict), fn("delete_file\u200b"), fn("get_forecast")] }, "line 1");
    expect([registry.schemaFor("delete_file"), registry.schemaFor("delete_file\u200b")]).toEqual([undefined, undefined]);
    expect(registry.notAllowedReason("delete_file\u200b")).toBe(clash("delete_file\u200b", "delete_file"));
    expect(registry.notAllowedReason("delete_file")).toBe(clash("delete_file", "delete_file\u200b"));
    expect(registry.schemaFor("get_forecast")).toEqual({ type: "object" });
  });
  test("one in a later body than the other: neither is taken, then or after", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("delete_file", strict)] }, "line 1");
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("Delete_File")] }, "line 2");
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("delete_file", strict)] }, "line 3");
    expect([registry.schemaFor("delete_file"), registry.schemaFor("Delete_File")]).toEqual([undefined, undefined]);
    expect(registry.notAllowedReason("Delete_File")).toBe(clash("Delete_File", "delete_file"));
  });
  test("the same name defined again is the same tool", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("delete_file", strict)] }, "line 1");
    registry.addRequestBody({ model: "m", input: "hi", tools: [fn("delete_file", strict)] }, "line 2");
    expect(registry.schemaFor("delete_file")).toEqual(strict);
  });
});

describe("a tool in both forms", () => {
  test("a function defined in the Chat form and the Responses form at once is read in neither, and its calls are refused", () => {
    const registry = new ToolRegistry();
    const twice = { type: "function", name: "get_latest_sales_report", parameters: salesParameters, function: { name: "get_latest_sales_report", parameters: { type: "object" } } };
    expect(registry.addRequestBody({ model: "m", input: "hi", tools: [twice] }, "line 1")).toEqual([
      "line 1: tools[0] defines the function twice, in the Chat form (function) and the Responses form (name, parameters), which two readers would read apart",
    ]);
    expect(registry.schemaFor("get_latest_sales_report")).toBeUndefined();
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe("tools[0] of line 1 defines it in a form that cannot be read");
  });
  test.each(["input_schema", "parametersJsonSchema", "parameters_json_schema", "inputSchema"])("a Chat tool with %s beside its function is read in neither form", (field) => {
    const registry = new ToolRegistry();
    const twice = { type: "function", function: { name: "get_latest_sales_report", parameters: { type: "object" } }, [field]: salesParameters };
    expect(registry.addRequestBody({ model: "m", input: "hi", tools: [twice] }, "line 1")).toEqual([
      `line 1: tools[0] defines the function twice, in the Chat form (function) and another envelope's fields (${field}), which two readers would read apart`,
    ]);
    expect(registry.schemaFor("get_latest_sales_report")).toBeUndefined();
  });
});

describe("an Open Responses tools array", () => {
  test("registers the flat function tools", () => {
    const registry = new ToolRegistry();
    registry.addTools(responsesTools, "tools.json");
    expect(registry.schemaFor("get_latest_sales_report")).toBe(salesParameters);
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
  });

  test("null parameters take no arguments", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "function", name: "list_regions", parameters: null, strict: false }], "tools.json");
    expect(registry.schemaFor("list_regions")).toEqual(NO_PARAMETERS);
  });

  test("hosted, MCP and extension tools are tools no function_call runs, known by their type", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "web_search" }, { type: "mcp", server_label: "docs" }, ...responsesTools, { type: "acme:lookup" }], "tools.json");
    expect(registry.names()).toEqual(["get_latest_sales_report", "get_weather", "web_search", "mcp", "acme:lookup"]);
    expect(registry.others()).toEqual([
      { name: "web_search", type: "web_search", where: "tools[0] of tools.json" },
      { name: "mcp", type: "mcp", where: "tools[1] of tools.json" },
      { name: "acme:lookup", type: "acme:lookup", where: "tools[4] of tools.json" },
    ]);
    expect(registry.schemaFor("web_search")).toBeUndefined();
    expect([registry.notAllowedReason("web_search"), registry.notAllowedReason("acme:lookup")]).toEqual([
      'tools[0] of tools.json defines it as a hosted tool (type "web_search"), which is called through items of its own, never through a function_call',
      'tools[4] of tools.json defines it as an extension tool (type "acme:lookup"), whose calls and arguments its provider defines: no function schema is known to judge a function_call by',
    ]);
  });

  test("an Open Responses custom tool is known by its name", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "custom", name: "run_sql", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } }], "tools.json");
    expect(registry.names()).toEqual(["run_sql"]);
  });

  test("a function of the same name as a hosted tool is the one a function_call runs", () => {
    const registry = new ToolRegistry();
    registry.addTools([{ type: "web_search" }, { type: "function", name: "web_search", parameters: { type: "object" } }], "tools.json");
    expect(registry.schemaFor("web_search")).toEqual({ type: "object" });
    expect(registry.notAllowedReason("web_search")).toBeUndefined();
    expect(registry.names()).toEqual(["web_search"]);
  });
});

describe("a Chat request body", () => {
  const body = { model: "gpt-4o", messages: [{ role: "user", content: "sales for apac?" }], tools: chatTools };

  test("without tool_choice, every function is allowed", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody(body, "line 1");
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather", "send_email"])).toEqual({ get_latest_sales_report: true, get_weather: true, send_email: true });
  });

  test("a named function choice allows that function only", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ ...body, tool_choice: { type: "function", function: { name: "get_weather" } } }, "line 1");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: true });
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe('tool_choice of line 1 allows only "get_weather"');
  });

  test("allowed_tools allows the listed functions", () => {
    const registry = new ToolRegistry();
    const toolChoice = { type: "allowed_tools", allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "get_latest_sales_report" } }] } };
    registry.addRequestBody({ ...body, tool_choice: toolChoice }, "line 1");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: true, get_weather: false });
  });

  test("a choice said two ways allows no function: a name in both forms, two lists, tool_choice beside a legacy function_call that allows otherwise", () => {
    const twoWays = [
      { tool_choice: { type: "function", function: { name: "get_weather" }, name: "get_latest_sales_report" } },
      { tool_choice: { type: "allowed_tools", allowed_tools: { tools: [{ type: "function", function: { name: "get_weather" } }] }, tools: [{ type: "function", name: "get_latest_sales_report" }] } },
      { tool_choice: "auto", function_call: "none" },
      { tool_choice: { type: "function", function: { name: "get_weather" } }, function_call: { name: "get_latest_sales_report" } },
    ];
    for (const choice of twoWays) {
      const registry = new ToolRegistry();
      registry.addRequestBody({ ...body, ...choice }, "line 1");
      expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
    }
    const agreeing = new ToolRegistry();
    agreeing.addRequestBody({ ...body, tool_choice: { type: "function", function: { name: "get_weather" } }, function_call: { name: "get_weather" } }, "line 1");
    expect(allowedOf(agreeing, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: true });
  });

  test("allowed_tools that gives its mode two ways allows no function: none on the choice, auto in allowed_tools", () => {
    const weather = [{ type: "function", function: { name: "get_weather" } }];
    const toolChoice = { type: "allowed_tools", mode: "none", allowed_tools: { mode: "auto", tools: weather } };
    const registry = new ToolRegistry();
    const problems = registry.addRequestBody({ ...body, tool_choice: toolChoice }, "line 1");
    expect(problems).toEqual(["line 1: tool_choice gives its mode twice, in allowed_tools.mode and in mode, two ways"]);
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
    const agreeing = new ToolRegistry();
    agreeing.addRequestBody({ ...body, tool_choice: { ...toolChoice, mode: "auto" } }, "line 1");
    expect(allowedOf(agreeing, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: true });
  });

  test('"none" allows no function', () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ ...body, tool_choice: "none" }, "line 1");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
    expect(registry.notAllowedReason("get_weather")).toBe("tool_choice of line 1 allows no function");
  });

  test("a limit spelled so that only a reader folding case or width reads it (Tool_choice, Parallel_tool_calls, a Gemini config's ToolConfig) allows no function", () => {
    const spelledOtherwise = [{ Tool_choice: "none" }, { TOOL_CHOICE: "none" }, { "tool_choice\u200b": "none" }, { Parallel_tool_calls: false }, { Tools: [] }, { tool_choice: { type: "allowed_tools", Mode: "auto", tools: [] } }, { config: { ToolConfig: { functionCallingConfig: { mode: "NONE" } } } }];
    for (const fields of spelledOtherwise) {
      const registry = new ToolRegistry();
      const problems = registry.addRequestBody({ ...body, ...fields }, "line 1");
      expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
      expect(problems).toHaveLength(1);
    }
    expect(new ToolRegistry().addRequestBody({ ...body, Tool_choice: "none" }, "line 1")).toEqual([
      'line 1: "/Tool_choice" is read by no envelope, yet a reader that matches names regardless of case or width (Go\'s encoding/json does) reads it as the request\'s tool_choice: which calls the request allows is not known',
    ]);
  });

  test('"required" allows every function', () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ ...body, tool_choice: "required" }, "line 1");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: true, get_weather: true });
  });

  test('"any", Mistral\'s word for "required", allows every function', () => {
    const registry = new ToolRegistry();
    expect(registry.addRequestBody({ ...body, tool_choice: "any" }, "line 1")).toEqual([]);
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: true, get_weather: true });
  });

  test("legacy functions and function_call apply when there is no tool_choice", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ messages: [], functions: [{ name: "get_weather", parameters: weatherParameters }], function_call: { name: "get_weather" } }, "line 4");
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe('function_call of line 4 allows only "get_weather"');
  });
});

describe("an Open Responses request body", () => {
  const body = { model: "gpt-5", input: "sales for apac?", tools: responsesTools };

  test("a named function choice allows that function only", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ ...body, tool_choice: { type: "function", name: "get_latest_sales_report" } }, "line 2");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: true, get_weather: false });
  });

  test("allowed_tools allows the listed functions and ignores hosted tools", () => {
    const registry = new ToolRegistry();
    const toolChoice = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }, { type: "image_generation" }] };
    registry.addRequestBody({ ...body, tool_choice: toolChoice }, "line 2");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: true });
  });

  test("a hosted tool choice allows no function", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ ...body, tool_choice: { type: "file_search" } }, "line 2");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
  });
});

describe("a call to a function of a namespace tool", { timeout: 30_000 }, () => {
  const folder = scratchFolder("tool-registry-namespace");
  const admin = { type: "namespace", name: "admin", description: "admin tools", tools: [{ type: "function", name: "get_latest_sales_report", parameters: { type: "object" } }] };
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_latest_sales_report", arguments: '{"region":"apac"}', status: "completed" };
  const gate = async (item: object) => {
    const journal = join(folder, "journal.jsonl");
    writeFileSync(journal, [{ model: "gpt-5", input: "sales for apac?", tools: [...responsesTools, admin] }, { id: "resp_1", object: "response", status: "completed", output: [item] }].map((record) => JSON.stringify(record)).join("\n") + "\n");
    const run = await runOrbridge(["gate", "--format", "json", journal]);
    return JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!) as { reason: string; detail: string };
  };

  test("is not judged by the top-level function of its name: no schema is known for it", async () => {
    expect(await gate({ ...call, namespace: "admin" })).toMatchObject({ reason: "unknown_tool", detail: 'no schema is known for "get_latest_sales_report" of namespace "admin": a namespace\'s function is another tool than the function of its name' });
  });

  test("a call whose namespace is null is the top-level function's", async () => {
    expect(await gate({ ...call, namespace: null })).toMatchObject({ reason: "ok" });
  });
});

describe("request bodies over a journal", () => {
  test("each request body's choice replaces the previous one", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: responsesTools, tool_choice: { type: "function", name: "get_weather" } }, "line 1");
    expect(registry.isAllowed("get_latest_sales_report")).toBe(false);
    registry.addRequestBody({ input: [], tools: responsesTools }, "line 5");
    expect(registry.isAllowed("get_latest_sales_report")).toBe(true);
  });

  test("a later definition of a name replaces the earlier one", () => {
    const registry = new ToolRegistry();
    registry.addTools(responsesTools, "line 1");
    const newer = { type: "object", properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } } };
    registry.addRequestBody({ messages: [], tools: [{ type: "function", function: { name: "get_weather", parameters: newer } }] }, "line 9");
    expect(registry.schemaFor("get_weather")).toBe(newer);
    expect(registry.schemaFor("get_latest_sales_report")).toBe(salesParameters);
  });
});

describe("a pinned tools file", () => {
  test("a tools array in either envelope", () => {
    expect(ToolRegistry.fromToolsFile(chatTools, "tools.json").names()).toEqual(["get_latest_sales_report", "get_weather"]);
    expect(ToolRegistry.fromToolsFile(responsesTools, "tools.json").names()).toEqual(["get_latest_sales_report", "get_weather"]);
  });

  test("the journal cannot redefine a pinned tool", () => {
    const registry = ToolRegistry.fromToolsFile(responsesTools, "tools.json");
    registry.addRequestBody({ input: [], tools: [{ type: "function", name: "get_weather", parameters: {} }, { type: "function", name: "send_email", parameters: {} }] }, "line 3");
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
    expect(registry.schemaFor("send_email")).toEqual({});
  });

  test("the journal's choice cannot widen the file's, only narrow it", () => {
    const registry = ToolRegistry.fromToolsFile({ tools: chatTools, tool_choice: { type: "function", function: { name: "get_weather" } }, messages: [] }, "tools.json");
    registry.addRequestBody({ input: [], tools: responsesTools, tool_choice: "auto" }, "line 3");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: true });
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe('tool_choice of tools.json allows only "get_weather"');
    registry.addRequestBody({ input: [], tool_choice: "none" }, "line 7");
    expect(allowedOf(registry, ["get_latest_sales_report", "get_weather"])).toEqual({ get_latest_sales_report: false, get_weather: false });
    expect(registry.notAllowedReason("get_weather")).toBe("tool_choice of line 7 allows no function");
  });
});

describe("a registry sent to another thread (data, fromData)", () => {
  test("goes on as the original does: pinned tools and choice, then the journal's", () => {
    const original = ToolRegistry.fromToolsFile({ tools: chatTools, tool_choice: { type: "function", function: { name: "get_weather" } }, messages: [] }, "tools.json");
    original.addRequestBody({ input: [], tools: [{ type: "function", name: "send_email", parameters: {} }], tool_choice: "required" }, "line 2");
    // Copied as a thread copies it.
    const copy = ToolRegistry.fromData(structuredClone(original.data()));
    const names = ["get_latest_sales_report", "get_weather", "send_email", "unknown"];
    for (const registry of [original, copy]) {
      registry.addRequestBody({ input: [], tools: [{ type: "function", name: "get_weather", parameters: {} }], tool_choice: { type: "function", name: "send_email" } }, "line 9");
    }
    expect(copy.names()).toEqual(original.names());
    for (const name of names) {
      expect(copy.schemaFor(name)).toEqual(original.schemaFor(name));
      expect(copy.notAllowedReason(name)).toBe(original.notAllowedReason(name));
    }
    // The pinned schema stayed, the pinned choice still narrows the journal's.
    expect(copy.schemaFor("get_weather")).toEqual(weatherParameters);
    expect(copy.notAllowedReason("send_email")).toBe('tool_choice of tools.json allows only "get_weather"');
  });

  test("the copy and the original change apart", () => {
    const original = ToolRegistry.fromToolsFile(responsesTools, "tools.json");
    const copy = ToolRegistry.fromData(original.data());
    copy.addRequestBody({ input: [], tools: [{ type: "function", name: "send_email", parameters: {} }], tool_choice: "none" }, "line 1");
    expect(original.names()).toEqual(["get_latest_sales_report", "get_weather"]);
    expect(original.isAllowed("get_weather")).toBe(true);
    expect(copy.isAllowed("get_weather")).toBe(false);
  });
});

describe("hostile names", () => {
  test("names of Object.prototype are ordinary names", () => {
    const registry = new ToolRegistry();
    expect([registry.schemaFor("constructor"), registry.schemaFor("__proto__"), registry.schemaFor("toString")]).toEqual([undefined, undefined, undefined]);
    registry.addRequestBody(JSON.parse('{"input":[],"tools":[{"type":"function","name":"__proto__","parameters":{"type":"object"}}],"tool_choice":{"type":"function","name":"__proto__"}}'), "line 1");
    expect(registry.schemaFor("__proto__")).toEqual({ type: "object" });
    expect([registry.isAllowed("__proto__"), registry.isAllowed("constructor")]).toEqual([true, false]);
  });
});

describe("malformed tools", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a tools value that is not an array", { tools: { type: "function" } }, "tools.json: tools must be an array, found an object"],
    ["a tool without a type", { tools: [{ name: "a", parameters: {} }] }, "tools.json: tools[0].type must be a non-empty string, found nothing"],
    ["a tool without a type beside its function", { tools: [{ function: { name: "a" }, custom: { name: "a" } }] }, "tools.json: tools[0].type must be a non-empty string, found nothing"],
    ["a Chat tool without a name", { tools: [{ type: "function", function: { parameters: {} } }] }, "tools.json: tools[0].function.name must be a non-empty string, found nothing"],
    ["an Open Responses tool with an empty name", { tools: [{ type: "function", name: "" }] }, 'tools.json: tools[0].name must be a non-empty string, found ""'],
    ["parameters that are not a schema", { tools: [{ type: "function", name: "a", parameters: "{}" }] }, 'tools.json: tools[0].parameters must be a JSON Schema (an object or a boolean), found "{}"'],
    ["a Chat function that is not an object", { tools: [{ type: "function", function: "a" }] }, 'tools.json: tools[0].function must be an object, found "a"'],
    ["a name defined twice", { tools: [...responsesTools, { type: "function", name: "get_weather" }] }, 'tools.json: tools[2].name defines "get_weather" again (first at tools[1].name)'],
    ["an unknown tool_choice mode", { tool_choice: "always" }, 'tools.json: tool_choice must be "none", "auto", "required" or an object, found "always"'],
    ["a function choice without a name", { tool_choice: { type: "function" } }, "tools.json: tool_choice.name must be a non-empty string, found nothing"],
    ["allowed_tools without tools", { tool_choice: { type: "allowed_tools", mode: "auto" } }, "tools.json: tool_choice.tools must be an array, found nothing"],
    ["a Chat allowed_tools entry without a name", { tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: {} }] } } }, "tools.json: tool_choice.allowed_tools.tools[0].function.name must be a non-empty string, found nothing"],
  ];

  test.each(cases)("%s, in a tools file: refused", (_label, body, message) => {
    expect(() => ToolRegistry.fromToolsFile(body, "tools.json")).toThrow(new Error(message));
  });

  test.each(cases)("%s, in a journal's request body: returned as a problem", (_label, body, message) => {
    expect(new ToolRegistry().addRequestBody(body, "tools.json")).toEqual([message]);
  });

  test("a tools array with a part that cannot be read adds nothing", () => {
    const registry = new ToolRegistry();
    expect(() => registry.addTools([...responsesTools, { type: "function" }], "tools.json")).toThrow(new Error("tools.json: tools[2].name must be a non-empty string, found nothing"));
    expect(registry.names()).toEqual([]);
  });

  test("a file that is neither a tools array nor a request body", () => {
    expect(() => ToolRegistry.fromToolsFile("tools", "tools.json")).toThrow(new Error('tools.json: expected a tools array or a request body (a JSON object), found "tools"'));
  });

  test("a tools file with several problems names each, one a line", () => {
    expect(() => ToolRegistry.fromToolsFile({ tools: [{ type: "function" }, 5], tool_choice: "always" }, "tools.json")).toThrow(
      new Error(
        [
          "tools.json: tools[0].name must be a non-empty string, found nothing",
          "tools.json: tools[1] must be an object, found number 5",
          'tools.json: tool_choice must be "none", "auto", "required" or an object, found "always"',
        ].join("\n"),
      ),
    );
  });
});

describe("a journal's request body read in part", () => {
  const readFile = { type: "function", name: "read_file", parameters: { type: "object" } };
  const deleteFile = { type: "function", name: "delete_file", parameters: { type: "object" } };
  const onlyReadFile = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "read_file" }] };

  test("a tool without a name: the choice still narrows, and only the functions read may run", () => {
    const registry = new ToolRegistry();
    expect(registry.addRequestBody({ input: [], tools: [readFile, deleteFile, { type: "function", parameters: {} }], tool_choice: onlyReadFile }, "line 1")).toEqual([
      "line 1: tools[2].name must be a non-empty string, found nothing",
    ]);
    expect(registry.schemaFor("read_file")).toEqual({ type: "object" });
    expect(allowedOf(registry, ["read_file", "delete_file", "send_email"])).toEqual({ read_file: true, delete_file: false, send_email: false });
    expect(registry.notAllowedReason("delete_file")).toBe('tool_choice of line 1 allows only "read_file"');
    expect(registry.notAllowedReason("send_email")).toBe('tool_choice of line 1 allows only "read_file"');
  });

  test("a tool without a name and no choice: the functions the body defines readably may run, no other", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: responsesTools }, "line 1");
    registry.addRequestBody({ input: [], tools: [readFile, 7] }, "line 2");
    expect(allowedOf(registry, ["read_file", "get_weather"])).toEqual({ read_file: true, get_weather: false });
    expect(registry.notAllowedReason("get_weather")).toBe('line 2 has tools that cannot be named; until the next request body, it allows only "read_file"');
    registry.addRequestBody({ input: [] }, "line 3");
    expect(allowedOf(registry, ["read_file", "get_weather"])).toEqual({ read_file: true, get_weather: true });
  });

  test("a definition whose name can be read but not its parameters: that name is refused until a later body defines it", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: responsesTools }, "line 1");
    expect(registry.addRequestBody({ input: [], tools: [{ type: "function", name: "get_weather", parameters: "loose" }] }, "line 2")).toEqual([
      'line 2: tools[0].parameters must be a JSON Schema (an object or a boolean), found "loose"',
    ]);
    expect(registry.schemaFor("get_weather")).toBeUndefined();
    expect(registry.notAllowedReason("get_weather")).toBe("tools[0] of line 2 defines it with parameters that cannot be read");
    expect(registry.isAllowed("get_latest_sales_report")).toBe(true);
    registry.addRequestBody({ input: [], tools: [{ type: "function", name: "get_weather", parameters: weatherParameters }] }, "line 3");
    expect(registry.isAllowed("get_weather")).toBe(true);
  });

  test("a name defined twice: neither definition is taken, and its calls are refused", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: [readFile, { ...readFile, parameters: true }] }, "line 1");
    expect(registry.schemaFor("read_file")).toBeUndefined();
    expect(registry.notAllowedReason("read_file")).toBe("line 1 defines it more than once");
  });

  test("an allowed_tools entry that cannot be read allows nothing; the names read still narrow", () => {
    const registry = new ToolRegistry();
    const choice = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "read_file" }, { type: "function" }] };
    expect(registry.addRequestBody({ input: [], tools: [readFile, deleteFile], tool_choice: choice }, "line 1")).toEqual(["line 1: tool_choice.tools[1].name must be a non-empty string, found nothing"]);
    expect(allowedOf(registry, ["read_file", "delete_file"])).toEqual({ read_file: true, delete_file: false });
    expect(registry.notAllowedReason("delete_file")).toBe('tool_choice of line 1 cannot all be read, so it allows only "read_file"');
  });

  test.each([
    ["an unknown mode", { type: "allowed_tools", mode: "sometimes", tools: [{ type: "function", name: "read_file" }] }],
    ["a list that is not an array", { type: "allowed_tools", mode: "auto", tools: "read_file" }],
    ["an unknown string", "sometimes"],
    ["a function choice without a name", { type: "function" }],
  ])("a tool_choice with %s allows no function", (_label, choice) => {
    const registry = new ToolRegistry();
    expect(registry.addRequestBody({ input: [], tools: [readFile, deleteFile], tool_choice: choice }, "line 1")).toHaveLength(1);
    expect(allowedOf(registry, ["read_file", "delete_file"])).toEqual({ read_file: false, delete_file: false });
    expect(registry.notAllowedReason("read_file")).toBe("tool_choice of line 1 cannot all be read, so it allows no function");
  });

  test("a legacy function_call that cannot be read allows no function", () => {
    const registry = new ToolRegistry();
    expect(registry.addRequestBody({ messages: [], functions: [{ name: "get_weather" }], function_call: { arguments: "{}" } }, "line 1")).toEqual([
      'line 1: function_call must be "none", "auto" or {"name": …}, found an object',
    ]);
    expect(registry.notAllowedReason("get_weather")).toBe("function_call of line 1 cannot all be read, so it allows no function");
  });

  test("a pinned tool keeps the file's definition, whatever the journal's cannot be read", () => {
    const registry = ToolRegistry.fromToolsFile(responsesTools, "tools.json");
    registry.addRequestBody({ input: [], tools: [{ type: "function", name: "get_weather", parameters: 3 }] }, "line 1");
    expect(registry.schemaFor("get_weather")).toBe(weatherParameters);
    expect(registry.isAllowed("get_weather")).toBe(true);
  });
});

describe("a record that carries tools but is not read as a request body (narrow)", () => {
  test("its choice narrows the one in force and never widens it", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: responsesTools, tool_choice: { type: "function", name: "get_weather" } }, "line 1");
    expect(registry.narrow({ model: "m", messages: "lost", tool_choice: "auto" }, "line 2")).toEqual([]);
    expect(registry.notAllowedReason("get_latest_sales_report")).toBe('tool_choice of line 1 allows only "get_weather"');
    registry.narrow({ model: "m", tool_choice: "none" }, "line 3");
    expect(registry.notAllowedReason("get_weather")).toBe("tool_choice of line 3, a record not read as a request body, allows no function");
  });

  test("the tools it names are refused until a request body defines them again", () => {
    const registry = new ToolRegistry();
    registry.addRequestBody({ input: [], tools: responsesTools }, "line 1");
    registry.narrow({ tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }] }, "line 2");
    expect(registry.schemaFor("get_weather")).toBeUndefined();
    expect(registry.notAllowedReason("get_weather")).toBe("line 2, a record not read as a request body, defines it");
    expect(registry.isAllowed("get_latest_sales_report")).toBe(true);
    registry.addRequestBody({ input: [], tools: responsesTools }, "line 3");
    expect(registry.isAllowed("get_weather")).toBe(true);
  });
});

describe("orbridge gate --tools with a file of hosted tools only", () => {
  const folder = scratchFolder("hosted-tools");
  const tools = join(folder, "hosted.json");
  writeFileSync(tools, JSON.stringify([{ type: "web_search" }]));
  const journal = join(folder, "journal.jsonl");
  writeFileSync(
    journal,
    [
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "web_search", arguments: "{}", status: "completed" },
      { type: "function_call", id: "fc_2", call_id: "call_2", name: "get_weather", arguments: "{}", status: "completed" },
      { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "weather in Lyon" } },
    ]
      .map((item) => JSON.stringify(item) + "\n")
      .join(""),
  );

  test("reads the file, gates function calls as unknown tools, and says a call naming the hosted tool is no function call", async () => {
    expect(await runOrbridge(["gate", "--tools", tools, journal])).toEqual({
      code: 1,
      stdout:
        'line 1  function_call call_1  BLOCKED unknown_tool: no schema is known for "web_search"\n' +
        `    tool_not_allowed: "web_search" is not allowed: tools[0] of ${tools} defines it as a hosted tool (type "web_search"), which is called through items of its own, never through a function_call\n` +
        'line 2  function_call call_2  BLOCKED unknown_tool: no schema is known for "get_weather"\n' +
        'line 3  openai:web_search_call -  BLOCKED namespaced: "openai:web_search_call" is an extension item, never a portable call\n',
      stderr: "read 3 lines: 3 items, 0 errors; 3 blocked\n  blocked by: unknown_tool 2, namespaced 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("a file with no tool at all is still refused", async () => {
    const empty = join(folder, "empty.json");
    writeFileSync(empty, "[]");
    expect(await runOrbridge(["gate", "--tools", empty, journal])).toEqual({ code: 2, stdout: "", stderr: `orbridge gate: tools file ${empty} defines no function tool\n` });
  });
});
