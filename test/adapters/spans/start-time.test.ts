import { afterEach, describe, expect, it } from "vitest";
import { startTime } from "../../../adapters/spans/start-time.js";

describe("startTime", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  // 2024-05-29T13:46:19.963Z
  const utc = 1_716_990_379_963_000_000n;

  it("reads a time with no zone as UTC, with a T or a space, wherever the machine is", () => {
    process.env.TZ = "America/New_York";
    expect(startTime("2024-05-29T13:46:19.963", "ns")).toEqual(utc);
    expect(startTime("2024-05-29 13:46:19.963000", "ns")).toEqual(utc);
    expect(startTime("2024-05-29T13:46:19.963Z", "ns")).toEqual(utc);
    expect(startTime("2024-05-29T15:46:19.963+02:00", "ns")).toEqual(utc);
  });

  it("keeps the digits past the millisecond", () => {
    expect(startTime("2024-05-29T13:46:19.963123456Z", "ns")).toEqual(utc + 123_456n);
    expect(startTime("2024-05-29 13:46:19.963123", "ns")).toEqual(utc + 123_000n);
  });

  it("reads decimal text and numbers in their unit", () => {
    expect(startTime("1716990379963000000", "ns")).toEqual(utc);
    expect(startTime(1_716_990_379_963_000, "us")).toEqual(utc);
  });
});
