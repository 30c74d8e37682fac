export type { ReaderLoss, Reading, StoredLogReader, StoredRecord, UnitAccount, UnitFate, MessageCounts } from "./reading.js";
