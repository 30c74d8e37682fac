#!/usr/bin/env python3
"""A straightforward line-by-line replay gate, the yardstick for `orbridge gate`.

It reads a JSONL journal, json.loads each line, takes the items out of each
record (Chat messages, Open Responses items, request bodies, chat.completion and
response objects, Chat chunk streams, Open Responses event streams, logged
exchanges), runs the seven checks of the design's table in order on each item,
and writes one JSON verdict per item. Schemas come from a tools file (a tools
array of either envelope) and from the request bodies of the journal; a small
hand-written validator covers the JSON Schema keywords the benchmark tools use.

usage: reference_gate.py --tools FILE JOURNAL
"""
import json
import math
import re
import sys

PROVIDER_TYPES = {
    "web_search_call", "file_search_call", "computer_call", "computer_call_output",
    "custom_tool_call", "custom_tool_call_output", "mcp_call", "mcp_list_tools",
    "mcp_approval_request", "mcp_approval_response", "image_generation_call",
    "code_interpreter_call", "local_shell_call", "local_shell_call_output",
    "shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output",
    "tool_search_call",
}

FORMATS = {
    "email": re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$"),
    "date": re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"),
    "date-time": re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"),
    "uri": re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$"),
    "uuid": re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
}

patterns = {}


def type_matches(expected, value):
    if expected == "object":
        return isinstance(value, dict)
    if expected == "array":
        return isinstance(value, list)
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if expected == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if expected == "number":
        return isinstance(value, (int, float))
    return False


def validate(schema, value, path=""):
    """The first error as a string, or None when `value` is valid."""
    if schema is True:
        return None
    if schema is False:
        return f"{path or '/'} is not allowed"
    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(type_matches(t, value) for t in types):
            return f"{path or '/'} must be {' or '.join(types)}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{path or '/'} must be equal to one of the allowed values"
    if "anyOf" in schema and all(validate(s, value, path) is not None for s in schema["anyOf"]):
        return f"{path or '/'} must match a schema in anyOf"
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            return f"{path or '/'} must not have fewer than {schema['minLength']} characters"
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return f"{path or '/'} must not have more than {schema['maxLength']} characters"
        if "pattern" in schema:
            pattern = patterns.get(schema["pattern"])
            if pattern is None:
                pattern = patterns[schema["pattern"]] = re.compile(schema["pattern"])
            if not pattern.search(value):
                return f'{path or "/"} must match pattern "{schema["pattern"]}"'
        if "format" in schema and schema["format"] in FORMATS and not FORMATS[schema["format"]].match(value):
            return f'{path or "/"} must match format "{schema["format"]}"'
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return f"{path or '/'} must be >= {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{path or '/'} must be <= {schema['maximum']}"
        if "multipleOf" in schema:
            quotient = value / schema["multipleOf"]
            if not math.isclose(quotient, round(quotient)):
                return f"{path or '/'} must be multiple of {schema['multipleOf']}"
    elif isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            return f"{path or '/'} must not have fewer than {schema['minItems']} items"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return f"{path or '/'} must not have more than {schema['maxItems']} items"
        if schema.get("uniqueItems"):
            seen = set()
            for element in value:
                key = json.dumps(element, sort_keys=True)
                if key in seen:
                    return f"{path or '/'} must not have duplicate items"
                seen.add(key)
        if "items" in schema:
            for index, element in enumerate(value):
                error = validate(schema["items"], element, f"{path}/{index}")
                if error:
                    return error
    elif isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                return f"{path or '/'} must have required property '{name}'"
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, element in value.items():
            if name in properties:
                error = validate(properties[name], element, f"{path}/{name}")
            elif extra is False:
                return f"{path or '/'} must NOT have additional property '{name}'"
            elif isinstance(extra, dict):
                error = validate(extra, element, f"{path}/{name}")
            else:
                error = None
            if error:
                return error
    return None


def gate(item, schemas):
    """The seven checks in the design's order: (reason, detail)."""
    if not isinstance(item, dict):
        return "namespaced", "the record is not an item"
    kind = item.get("type")
    if not isinstance(kind, str):
        return "namespaced", "the item has no type" if kind is None else "type is not a string"
    if ":" in kind:
        return "namespaced", f'"{kind}" is an extension item, never a portable call'
    if kind != "function_call":
        return "not_function_call", f'"{kind}" is not a function_call'
    status = item.get("status")
    if status != "completed":
        return "status", f"status is {json.dumps(status)}; only \"completed\" may run"
    arguments = item.get("arguments")
    if not isinstance(arguments, str):
        return "arguments_type", "arguments is not a JSON string"
    try:
        value = json.loads(arguments)
    except ValueError as error:
        return "arguments_parse", f"arguments is not JSON: {error}"
    schema = schemas.get(item.get("name"))
    if schema is None:
        return "unknown_tool", f"no schema is known for {json.dumps(item.get('name'))}"
    error = validate(schema, value)
    if error:
        return "arguments_schema", f"arguments{error}"
    return "ok", "completed call with arguments valid for its schema"


def add_tools(tools, schemas):
    for tool in tools if isinstance(tools, list) else ():
        if not isinstance(tool, dict) or tool.get("type") != "function":
            continue
        definition = tool.get("function") if isinstance(tool.get("function"), dict) else tool
        if isinstance(definition.get("name"), str):
            schemas[definition["name"]] = definition.get("parameters", True)


def chat_items(message, status="completed"):
    role = message.get("role")
    items = []
    if role == "tool":
        return [{"type": "function_call_output", "call_id": message.get("tool_call_id"), "output": message.get("content")}]
    if message.get("content") is not None or not message.get("tool_calls"):
        items.append({"type": "message", "role": role, "content": message.get("content")})
    for call in message.get("tool_calls") or ():
        function = call.get("function") or {}
        items.append({"type": "function_call", "call_id": call.get("id"), "name": function.get("name"),
                      "arguments": function.get("arguments"), "status": status})
    return items


def finish_status(reason):
    return "incomplete" if reason in ("length", "content_filter") else "completed"


def canonical(item):
    kind = item.get("type") if isinstance(item, dict) else None
    if kind in PROVIDER_TYPES:
        return {**item, "type": "openai:" + kind}
    if isinstance(item, dict) and kind is None and "role" in item:
        return {**item, "type": "message"}
    return item


class Streams:
    """Chat chunks and Open Responses events, reassembled into items."""

    def __init__(self):
        self.chat = {}        # (choice, tool index) -> call
        self.chat_id = None
        self.events = {}      # output_index -> item
        self.done = set()

    def chunk(self, record):
        # Another completion's chunks end the one before, finished or not.
        items = self.flush() if record.get("id") != self.chat_id else []
        self.chat_id = record.get("id")
        for choice in record.get("choices") or ():
            for delta in (choice.get("delta") or {}).get("tool_calls") or ():
                key = (choice.get("index"), delta.get("index"))
                call = self.chat.setdefault(key, {"type": "function_call", "call_id": None, "name": None, "arguments": "", "status": "in_progress"})
                function = delta.get("function") or {}
                if delta.get("id"):
                    call["call_id"] = delta["id"]
                if function.get("name"):
                    call["name"] = function["name"]
                call["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                for key in sorted(k for k in self.chat if k[0] == choice.get("index")):
                    call = self.chat.pop(key)
                    call["status"] = finish_status(choice["finish_reason"])
                    items.append(call)
        return items

    def event(self, record):
        kind = record["type"]
        index = record.get("output_index")
        if kind == "response.created":
            return self.flush()
        if kind == "response.output_item.added":
            self.events[index] = dict(record.get("item") or {})
        elif kind == "response.function_call_arguments.delta" and index in self.events:
            self.events[index]["arguments"] = self.events[index].get("arguments", "") + (record.get("delta") or "")
        elif kind == "response.function_call_arguments.done" and index in self.events:
            self.events[index]["arguments"] = record.get("arguments")
        elif kind == "response.output_item.done":
            self.events.pop(index, None)
            item = record.get("item") or {}
            self.done.add(item.get("id"))
            return [item]
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            output = (record.get("response") or {}).get("output") or []
            items = [item for item in output if item.get("id") not in self.done]
            self.events.clear()
            self.done.clear()
            return items
        return []

    def flush(self):
        items = list(self.chat.values()) + list(self.events.values())
        self.chat.clear()
        self.chat_id = None
        self.events.clear()
        self.done.clear()
        return items


def record_items(record, streams, schemas):
    """The items of one record, in order; streams give theirs when they finish."""
    if not isinstance(record, dict):
        return streams.flush() + [record]
    kind = record.get("type")
    if record.get("object") == "chat.completion.chunk":
        return streams.chunk(record)
    if isinstance(kind, str) and kind.startswith("response."):
        return streams.event(record)
    items = streams.flush()
    if record.get("object") == "chat.completion":
        for choice in record.get("choices")[:1]:
            items += chat_items(choice.get("message") or {}, finish_status(choice.get("finish_reason")))
    elif record.get("object") == "response" and isinstance(record.get("output"), list):
        items += record["output"]
    elif isinstance(record.get("request"), dict) and isinstance(record.get("response"), dict):
        items += record_items(record["request"], streams, schemas) + record_items(record["response"], streams, schemas)
    elif isinstance(record.get("messages"), list):
        add_tools(record.get("tools"), schemas)
        for message in record["messages"]:
            items += chat_items(message)
    elif kind is None and isinstance(record.get("input"), (str, list)):
        add_tools(record.get("tools"), schemas)
        source = record["input"]
        items += [{"type": "message", "role": "user", "content": source}] if isinstance(source, str) else source
    elif kind is None and isinstance(record.get("role"), str):
        items += chat_items(record)
    else:
        items.append(record)
    return items


def main(argv):
    if len(argv) != 4 or argv[1] != "--tools":
        sys.stderr.write("usage: reference_gate.py --tools FILE JOURNAL\n")
        return 2
    schemas = {}
    with open(argv[2], encoding="utf-8") as tools_file:
        tools = json.load(tools_file)
    add_tools(tools.get("tools") if isinstance(tools, dict) else tools, schemas)
    streams = Streams()
    out = sys.stdout
    counts = {"lines": 0, "items": 0, "errors": 0, "blocked": 0}

    def emit(line, index, item):
        reason, detail = gate(canonical(item), schemas)
        blocked = reason not in ("ok", "not_function_call")
        counts["items"] += 1
        counts["blocked"] += blocked
        fields = item if isinstance(item, dict) else {}
        out.write(json.dumps({"line": line, "index": index, "type": fields.get("type"), "call_id": fields.get("call_id"),
                              "reason": reason, "detail": detail, "blocked": blocked}) + "\n")

    with open(argv[3], encoding="utf-8") as journal:
        for number, text in enumerate(journal, 1):
            counts["lines"] += 1
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except ValueError as error:
                counts["errors"] += 1
                counts["blocked"] += 1
                out.write(json.dumps({"line": number, "index": 0, "reason": "error", "detail": f"line is not JSON: {error}", "blocked": True}) + "\n")
                continue
            for index, item in enumerate(record_items(record, streams, schemas)):
                emit(number, index, item)
        for index, item in enumerate(streams.flush()):
            emit(counts["lines"], index, item)
    sys.stderr.write(f"read {counts['lines']} lines: {counts['items']} items, {counts['errors']} errors; {counts['blocked']} blocked\n")
    return 1 if counts["blocked"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
