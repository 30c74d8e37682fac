// The guard the gate checks before writing each batch: a member added to,
// or replaced on, a prototype every object inherits from stops the gate.
import { afterEach, describe, expect, test } from "vitest";
import { PrototypeGuard } from "../../src/cli/prototype-guard.js";

const objectPrototype = Object.prototype as Record<string, unknown>;
const arrayPrototype = Array.prototype as unknown as Record<string, unknown>;
const savedJoin = Array.prototype.join;

afterEach(() => {
  delete objectPrototype.status;
  delete objectPrototype["0"];
  if (!Object.hasOwn(Array.prototype, "join")) arrayPrototype.join = savedJoin;
  arrayPrototype.join = savedJoin;
});

describe("PrototypeGuard", () => {
  test("is quiet while no prototype changed", () => {
    expect(() => new PrototypeGuard().check()).not.toThrow();
  });

  test("throws, naming the prototype and the member, when one gained a member", () => {
    const guard = new PrototypeGuard();
    objectPrototype.status = "completed";
    expect(() => guard.check()).toThrow("a line of the journal changed Object.prototype (its member status): the run stops, as nothing more this process writes could be trusted");
  });

  test("throws when a member was replaced", () => {
    const guard = new PrototypeGuard();
    arrayPrototype.join = () => "";
    expect(() => guard.check()).toThrow(/changed Array\.prototype \(its member join\)/);
  });

  test("throws, naming the member gone, when one was removed", () => {
    const guard = new PrototypeGuard();
    delete arrayPrototype.join;
    expect(() => guard.check()).toThrow(/changed Array\.prototype \(its member join\)/);
  });

  test("throws when a setter was put on a member that had none", () => {
    const guard = new PrototypeGuard();
    Object.defineProperty(Object.prototype, "status", { set() {}, configurable: true });
    expect(() => guard.check()).toThrow(/changed Object\.prototype \(its member status\)/);
  });

  test("throws when an index key, which goes before every other key, was added", () => {
    const guard = new PrototypeGuard();
    objectPrototype["0"] = "x";
    expect(() => guard.check()).toThrow(/changed Object\.prototype \(its member 0\)/);
  });
});
