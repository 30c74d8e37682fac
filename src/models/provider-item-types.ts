// Item types that OpenAI's Responses API defines beyond the portable core. They
// arrive without a slug in OpenAI's own journals; the Open Responses spec wants
// such extension types prefixed (`openai:web_search_call`), and only OpenAI's
// Responses API accepts them back.
export const OPENAI_ITEM_TYPES: ReadonlySet<string> = new Set([
  "web_search_call",
  "file_search_call",
  "computer_call",
  "computer_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "image_generation_call",
  "code_interpreter_call",
  "local_shell_call",
  "local_shell_call_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "tool_search_call",
  "tool_search_output",
]);
