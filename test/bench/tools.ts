// The twenty tools of the synthetic journals: realistic JSON Schemas (enums,
// patterns, formats, nested objects, arrays, required) with a generator of valid
// arguments and of a tool result for each, and a schema-driven way to make
// arguments that break the schema. The Python reference gate validates the same
// constructs by hand, so only these keywords appear: type, enum, pattern,
// minLength, maxLength, minimum, maximum, multipleOf, required, properties,
// additionalProperties, items, minItems, maxItems, uniqueItems, format, anyOf.
import type { Random } from "./random.js";

export type JsonSchema = Record<string, unknown>;

export interface BenchTool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Arguments a model would send, valid for `parameters`. */
  args(random: Random): Record<string, unknown>;
  /** What the tool answered. */
  output(random: Random): string;
}

const str = (extra: JsonSchema = {}): JsonSchema => ({ type: "string", ...extra });
const int = (minimum: number, maximum: number): JsonSchema => ({ type: "integer", minimum, maximum });
const enumOf = (...values: string[]): JsonSchema => ({ type: "string", enum: values });
const object = (properties: Record<string, JsonSchema>, required: string[], extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

const isoDate = (random: Random) => `20${random.int(24, 27)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`;
const isoDateTime = (random: Random) => `${isoDate(random)}T${pad(random.int(0, 23))}:${pad(random.pick([0, 15, 30, 45]))}:00Z`;
const pad = (n: number) => String(n).padStart(2, "0");
const email = (random: Random) => `${random.pick(["ana", "li.wei", "omar", "sofia", "jp", "kim"])}${random.int(1, 99)}@${random.pick(["example.com", "corp.example.org", "mail.example.net"])}`;
const uuid = (random: Random) => `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-a${random.hex(3)}-${random.hex(12)}`;
const city = (random: Random) => random.pick(["Lisbon", "Nairobi", "Osaka", "São Paulo", "Reykjavík", "Toronto", "Pune", "Kraków"]);
const jsonOutput = (value: unknown) => JSON.stringify(value);

export const BENCH_TOOLS: BenchTool[] = [
  {
    name: "get_weather",
    description: "Current weather for a place.",
    parameters: object({ location: str({ minLength: 1, maxLength: 120 }), unit: enumOf("celsius", "fahrenheit") }, ["location"]),
    args: (r) => (r.chance(0.6) ? { location: city(r), unit: r.pick(["celsius", "fahrenheit"]) } : { location: city(r) }),
    output: (r) => jsonOutput({ temperature: r.int(-10, 38), conditions: r.pick(["sunny", "rain", "cloudy", "snow"]), humidity: r.int(10, 99) }),
  },
  {
    name: "get_latest_sales_report",
    description: "The latest sales report of a region.",
    parameters: object({ region: enumOf("apac", "emea", "amer"), quarter: str({ pattern: "^Q[1-4]-20[0-9]{2}$" }) }, ["region"]),
    args: (r) => ({ region: r.pick(["apac", "emea", "amer"]), quarter: `Q${r.int(1, 4)}-20${r.int(24, 26)}` }),
    output: (r) => `sales report for ${r.pick(["apac", "emea", "amer"])}: ${r.text(r.size(80, 400, 3000))}`,
  },
  {
    name: "search_documents",
    description: "Full-text search over the knowledge base.",
    parameters: object(
      {
        query: str({ minLength: 1, maxLength: 2000 }),
        top_k: int(1, 50),
        filters: object({ source: enumOf("wiki", "tickets", "email", "drive"), after: str({ format: "date" }), tags: { type: "array", items: str({ maxLength: 40 }), maxItems: 10 } }, [], {}),
      },
      ["query"],
    ),
    args: (r) => ({
      query: r.text(r.size(10, 60, 800)),
      top_k: r.int(1, 50),
      ...(r.chance(0.5) ? { filters: { source: r.pick(["wiki", "tickets", "email", "drive"]), after: isoDate(r), tags: Array.from({ length: r.int(0, 4) }, () => r.pick(["q3", "pricing", "infra", "legal", "hr"])) } } : {}),
    }),
    output: (r) => jsonOutput({ results: Array.from({ length: r.int(1, 6) }, () => ({ id: `doc_${r.alnum(10)}`, title: r.text(40), snippet: r.text(r.size(40, 200, 800)), score: Number(r.next().toFixed(3)) })) }),
  },
  {
    name: "send_email",
    description: "Send an email on the user's behalf.",
    parameters: object(
      {
        to: { type: "array", items: str({ format: "email" }), minItems: 1, maxItems: 20 },
        cc: { type: "array", items: str({ format: "email" }), maxItems: 20 },
        subject: str({ minLength: 1, maxLength: 200 }),
        body: str({ maxLength: 20000 }),
      },
      ["to", "subject", "body"],
    ),
    args: (r) => ({ to: Array.from({ length: r.int(1, 3) }, () => email(r)), ...(r.chance(0.3) ? { cc: [email(r)] } : {}), subject: r.text(r.int(10, 80)), body: r.text(r.size(60, 600, 6000)) }),
    output: (r) => jsonOutput({ status: "sent", message_id: `<${r.hex(16)}@mail.example.net>` }),
  },
  {
    name: "create_calendar_event",
    description: "Create an event in the user's calendar.",
    parameters: object(
      {
        title: str({ minLength: 1, maxLength: 200 }),
        start: str({ format: "date-time" }),
        end: str({ format: "date-time" }),
        location: str(),
        attendees: { type: "array", items: object({ email: str({ format: "email" }), optional: { type: "boolean" } }, ["email"]), maxItems: 50 },
      },
      ["title", "start", "end"],
    ),
    args: (r) => ({ title: r.text(r.int(10, 60)), start: isoDateTime(r), end: isoDateTime(r), ...(r.chance(0.5) ? { location: city(r) } : {}), attendees: Array.from({ length: r.int(0, 5) }, () => ({ email: email(r), optional: r.chance(0.3) })) }),
    output: (r) => jsonOutput({ event_id: `evt_${r.alnum(12)}`, created: true }),
  },
  {
    name: "lookup_order",
    description: "Look up an order by its number.",
    parameters: object({ order_id: str({ pattern: "^ORD-[0-9]{8}$" }), include_items: { type: "boolean" } }, ["order_id"]),
    args: (r) => ({ order_id: `ORD-${r.chars("0123456789", 8)}`, include_items: r.chance(0.5) }),
    output: (r) => jsonOutput({ status: r.pick(["shipped", "processing", "delivered"]), items: Array.from({ length: r.int(1, 8) }, () => ({ sku: r.alnum(8), qty: r.int(1, 5), price: r.int(100, 99999) / 100 })) }),
  },
  {
    name: "refund_payment",
    description: "Refund all or part of a payment.",
    parameters: object({ payment_id: str({ pattern: "^pay_[A-Za-z0-9]{14}$" }), amount_cents: int(1, 10000000), reason: enumOf("duplicate", "fraudulent", "requested_by_customer") }, ["payment_id", "amount_cents", "reason"]),
    args: (r) => ({ payment_id: `pay_${r.alnum(14)}`, amount_cents: r.int(100, 250000), reason: r.pick(["duplicate", "fraudulent", "requested_by_customer"]) }),
    output: (r) => jsonOutput({ refund_id: `re_${r.alnum(14)}`, status: "pending" }),
  },
  {
    name: "read_file",
    description: "Read a file of the workspace.",
    parameters: object({ path: str({ pattern: "^(/[^/]+)+$", maxLength: 1024 }), encoding: enumOf("utf-8", "base64"), offset: int(0, 1e9), limit: int(1, 1e6) }, ["path"]),
    args: (r) => ({ path: `/workspace/${r.pick(["src", "docs", "data", "tests"])}/${r.alnum(8)}.${r.pick(["ts", "md", "json", "py"])}`, ...(r.chance(0.4) ? { encoding: "utf-8", offset: r.int(0, 4000), limit: r.int(100, 4000) } : {}) }),
    output: (r) => r.text(r.size(100, 1500, 12000)),
  },
  {
    name: "write_file",
    description: "Write a file of the workspace.",
    parameters: object({ path: str({ pattern: "^(/[^/]+)+$", maxLength: 1024 }), content: str({ maxLength: 1000000 }), mode: enumOf("overwrite", "append") }, ["path", "content"]),
    args: (r) => ({ path: `/workspace/${r.pick(["src", "docs", "notes"])}/${r.alnum(8)}.${r.pick(["ts", "md", "txt"])}`, content: r.text(r.size(200, 1800, 12000)), mode: r.pick(["overwrite", "append"]) }),
    output: () => "ok",
  },
  {
    name: "run_sql",
    description: "Run a read-only SQL query.",
    parameters: object(
      {
        query: str({ minLength: 1, maxLength: 20000 }),
        database: enumOf("analytics", "billing", "inventory"),
        params: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] }, maxItems: 100 },
        timeout_ms: int(100, 60000),
      },
      ["query", "database"],
    ),
    args: (r) => ({
      query: `SELECT ${r.pick(["region", "sku", "customer_id"])}, sum(amount) FROM ${r.pick(["orders", "invoices", "events"])} WHERE created_at > $1 AND note LIKE $2 GROUP BY 1 ORDER BY 2 DESC LIMIT ${r.int(5, 500)}`,
      database: r.pick(["analytics", "billing", "inventory"]),
      params: [isoDate(r), `%${r.text(8)}%`, ...(r.chance(0.3) ? [null, r.int(1, 99)] : [])],
      timeout_ms: r.int(1000, 30000),
    }),
    output: (r) => jsonOutput({ rows: Array.from({ length: r.int(1, 20) }, () => [r.pick(["apac", "emea", "amer"]), r.int(1000, 900000)]) }),
  },
  {
    name: "http_request",
    description: "Send an HTTP request to an allowed host.",
    parameters: object(
      {
        method: enumOf("GET", "POST", "PUT", "DELETE"),
        url: str({ format: "uri" }),
        headers: { type: "object", additionalProperties: str({ maxLength: 4096 }) },
        body: { type: ["string", "null"] },
      },
      ["method", "url"],
    ),
    args: (r) => ({
      method: r.pick(["GET", "POST"]),
      url: `https://api.example.com/v${r.int(1, 3)}/${r.pick(["orders", "users", "reports"])}/${r.alnum(10)}?expand=${r.pick(["items", "owner"])}`,
      headers: { accept: "application/json", "x-request-id": uuid(r) },
      body: r.chance(0.5) ? null : jsonOutput({ note: r.text(r.size(20, 200, 2000)) }),
    }),
    output: (r) => jsonOutput({ status: 200, body: r.text(r.size(50, 600, 6000)) }),
  },
  {
    name: "translate_text",
    description: "Translate a text between two languages.",
    parameters: object({ text: str({ minLength: 1, maxLength: 50000 }), source_lang: str({ pattern: "^[a-z]{2}(-[A-Z]{2})?$" }), target_lang: str({ pattern: "^[a-z]{2}(-[A-Z]{2})?$" }) }, ["text", "target_lang"]),
    args: (r) => ({ text: r.text(r.size(20, 300, 4000)), source_lang: r.pick(["en", "pt-BR", "ja", "de"]), target_lang: r.pick(["fr", "es-MX", "ko", "en-GB"]) }),
    output: (r) => r.text(r.size(20, 300, 4000)),
  },
  {
    name: "create_ticket",
    description: "Open a ticket in the issue tracker.",
    parameters: object(
      {
        title: str({ minLength: 3, maxLength: 200 }),
        description: str({ maxLength: 50000 }),
        priority: enumOf("low", "medium", "high", "urgent"),
        labels: { type: "array", items: str({ pattern: "^[a-z][a-z0-9-]*$" }), uniqueItems: true, maxItems: 10 },
        assignee: object({ id: str({ pattern: "^usr_[a-z0-9]{8}$" }), team: enumOf("platform", "billing", "support") }, ["id"]),
      },
      ["title", "priority"],
    ),
    args: (r) => ({
      title: r.text(r.int(12, 90)),
      description: r.text(r.size(40, 500, 5000)),
      priority: r.pick(["low", "medium", "high", "urgent"]),
      labels: [...new Set(Array.from({ length: r.int(0, 4) }, () => r.pick(["bug", "infra", "p1", "customer-reported", "regression"])))],
      ...(r.chance(0.5) ? { assignee: { id: `usr_${r.chars("abcdefghijklmnopqrstuvwxyz0123456789", 8)}`, team: r.pick(["platform", "billing", "support"]) } } : {}),
    }),
    output: (r) => jsonOutput({ ticket: `TCK-${r.int(1000, 99999)}`, url: `https://tracker.example.com/t/${r.int(1000, 99999)}` }),
  },
  {
    name: "get_stock_quote",
    description: "The latest quote of a listed stock.",
    parameters: object({ symbol: str({ pattern: "^[A-Z]{1,5}$" }), exchange: enumOf("NYSE", "NASDAQ", "LSE", "TSE") }, ["symbol"]),
    args: (r) => ({ symbol: r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", r.int(1, 5)), exchange: r.pick(["NYSE", "NASDAQ", "LSE", "TSE"]) }),
    output: (r) => jsonOutput({ price: r.int(100, 500000) / 100, currency: "USD", change_pct: r.int(-500, 500) / 100 }),
  },
  {
    name: "book_flight",
    description: "Book a flight for one or more passengers.",
    parameters: object(
      {
        origin: str({ pattern: "^[A-Z]{3}$" }),
        destination: str({ pattern: "^[A-Z]{3}$" }),
        date: str({ format: "date" }),
        cabin: enumOf("economy", "premium", "business", "first"),
        passengers: {
          type: "array",
          minItems: 1,
          maxItems: 9,
          items: object({ first_name: str({ minLength: 1 }), last_name: str({ minLength: 1 }), birth_date: str({ format: "date" }), loyalty_number: str({ pattern: "^[A-Z0-9]{6,12}$" }) }, ["first_name", "last_name", "birth_date"]),
        },
      },
      ["origin", "destination", "date", "passengers"],
    ),
    args: (r) => ({
      origin: r.pick(["LIS", "NBO", "KIX", "GRU", "KEF", "YYZ"]),
      destination: r.pick(["PNQ", "KRK", "JFK", "CDG", "SIN"]),
      date: isoDate(r),
      cabin: r.pick(["economy", "premium", "business"]),
      passengers: Array.from({ length: r.int(1, 4) }, () => ({ first_name: r.pick(["Ana", "Wei", "Omar", "Sofía", "Jörg"]), last_name: r.pick(["Silva", "Li", "Haddad", "Nowak"]), birth_date: `19${r.int(50, 99)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`, ...(r.chance(0.3) ? { loyalty_number: r.chars("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", 9) } : {}) })),
    }),
    output: (r) => jsonOutput({ booking: r.chars("ABCDEFGHJKLMNPQRSTUVWXYZ", 6), total: r.int(20000, 400000) / 100 }),
  },
  {
    name: "update_plan",
    description: "Record the plan of the task and the status of each step.",
    parameters: object(
      {
        explanation: str({ maxLength: 4000 }),
        plan: { type: "array", minItems: 1, items: object({ step: str({ minLength: 1 }), status: enumOf("pending", "in_progress", "completed") }, ["step", "status"]) },
      },
      ["plan"],
    ),
    args: (r) => ({ explanation: r.text(r.size(20, 150, 1200)), plan: Array.from({ length: r.int(2, 7) }, () => ({ step: r.text(r.int(20, 90)), status: r.pick(["pending", "in_progress", "completed"]) })) }),
    output: () => "plan updated",
  },
  {
    name: "calculator",
    description: "Evaluate an arithmetic expression.",
    parameters: object({ expression: str({ pattern: "^[0-9+*/(). -]+$", maxLength: 500 }) }, ["expression"]),
    args: (r) => ({ expression: Array.from({ length: r.int(2, 6) }, () => String(r.int(1, 9999))).join(` ${r.pick(["+", "-", "*", "/"])} `) }),
    output: (r) => String(r.int(-99999, 99999) / 10),
  },
  {
    name: "geocode_address",
    description: "Coordinates of a postal address.",
    parameters: object(
      {
        address: object({ street: str({ minLength: 1 }), city: str({ minLength: 1 }), postal_code: str({ pattern: "^[A-Z0-9 -]{3,10}$" }), country: str({ pattern: "^[A-Z]{2}$" }) }, ["street", "city", "country"]),
      },
      ["address"],
    ),
    args: (r) => ({ address: { street: `${r.int(1, 300)} ${r.pick(["Rua Augusta", "Moi Avenue", "Main Street", "ul. Floriańska"])}`, city: city(r), postal_code: `${r.int(10000, 99999)}`, country: r.pick(["PT", "KE", "JP", "BR", "IS", "CA", "IN", "PL"]) } }),
    output: (r) => jsonOutput({ lat: r.int(-9000, 9000) / 100, lon: r.int(-18000, 18000) / 100 }),
  },
  {
    name: "summarize_thread",
    description: "Summarize a conversation thread.",
    parameters: object({ thread_id: str({ format: "uuid" }), max_words: int(10, 2000), style: enumOf("bullets", "paragraph", "tldr") }, ["thread_id"]),
    args: (r) => ({ thread_id: uuid(r), max_words: r.int(50, 500), style: r.pick(["bullets", "paragraph", "tldr"]) }),
    output: (r) => r.text(r.size(60, 500, 3000)),
  },
  {
    name: "set_thermostat",
    description: "Set the target temperature of a thermostat.",
    parameters: object(
      {
        device_id: str({ pattern: "^thermo-[0-9]{4}$" }),
        target_celsius: { type: "number", minimum: 5, maximum: 35, multipleOf: 0.5 },
        mode: enumOf("heat", "cool", "auto", "off"),
        schedule: {
          anyOf: [
            object({ kind: enumOf("once") }, ["kind"]),
            object({ kind: enumOf("daily"), at: str({ pattern: "^[0-2][0-9]:[0-5][0-9]$" }) }, ["kind", "at"]),
          ],
        },
      },
      ["device_id", "target_celsius"],
    ),
    args: (r) => ({ device_id: `thermo-${r.chars("0123456789", 4)}`, target_celsius: r.int(10, 60) / 2, mode: r.pick(["heat", "cool", "auto"]), schedule: r.chance(0.5) ? { kind: "once" } : { kind: "daily", at: `${pad(r.int(0, 23))}:${pad(r.int(0, 59))}` } }),
    output: () => jsonOutput({ ok: true }),
  },
];

/** Names a model calls that no tools file knows: the gate fails closed on them. */
export const UNKNOWN_TOOL_NAMES = ["delete_repository", "transfer_funds", "shell_exec"];

/**
 * Makes `args` break `schema` in one way a model really does: a required
 * property left out, a value outside an enum, a string that misses its pattern,
 * an extra property, or a number sent as a string.
 */
export function breakArguments(random: Random, schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = schema.required as string[];
  const broken = { ...args };
  const options: (() => void)[] = [];
  for (const name of required) options.push(() => delete broken[name]);
  for (const [name, property] of Object.entries(properties)) {
    if (!(name in args)) continue;
    if (Array.isArray(property.enum)) options.push(() => (broken[name] = "global"));
    if (typeof property.pattern === "string") options.push(() => (broken[name] = "not ?? valid"));
    if (property.type === "integer" || property.type === "number") options.push(() => (broken[name] = String(args[name])));
  }
  if (schema.additionalProperties === false) options.push(() => (broken[random.pick(["verbose", "dry_run", "confirm"])] = true));
  random.pick(options)();
  return broken;
}

/** A tool in the Chat envelope. */
export function chatTool(tool: BenchTool): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** A tool in the Open Responses envelope. */
export function responsesTool(tool: BenchTool): Record<string, unknown> {
  return { type: "function", name: tool.name, description: tool.description, parameters: tool.parameters, strict: false };
}
