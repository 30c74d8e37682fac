import type { AdapterName } from "../../adapters/index.js";
import { ENVELOPE_TITLES } from "../journal/envelope-titles.js";

/** How a loss names each envelope that has no status for one call. */
export const WRITTEN_AS: Readonly<Record<"chat" | AdapterName, string>> = { chat: "Chat", ...ENVELOPE_TITLES };
