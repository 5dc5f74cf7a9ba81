/**
 * The KeyValueStore contract: every adapter runs this one suite (see key-value-store.test.ts),
 * its limits included (namespaces and bytes of keys and values, and a store that opens over them).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KeyLimitExceededError, StoreLimitExceededError } from "../../core/kv/errors.ts";
import type { KeyValueStore } from "../../core/ports.ts";
import { createSteppingClock, type SteppingClock } from "../helpers/stepping-clock.ts";

export interface KeyValueStoreOptions {
  clock: SteppingClock;
  maxKeysPerNamespace: number;
  maxNamespaces?: number;
  maxTotalBytes?: number;
}

export interface KeyValueStoreFactory {
  /** A fresh, empty store. */
  create(options: KeyValueStoreOptions): Promise<KeyValueStore>;
  /** A new instance over the same persisted data as `store` (which is closed first). */
  reopen?(store: KeyValueStore, options: KeyValueStoreOptions): Promise<KeyValueStore>;
}

export function describeKeyValueStoreContract(name: string, factory: KeyValueStoreFactory): void {
  describeLimitsContract(name, factory);
  describe(`KeyValueStore contract: ${name}`, () => {
    let clock: SteppingClock;
    let store: KeyValueStore;
    const options = () => ({ clock, maxKeysPerNamespace: 3 });

    beforeEach(async () => {
      clock = createSteppingClock();
      store = await factory.create(options());
    });
    afterEach(async () => {
      await store.close();
    });

    it("returns a value that was set and undefined for missing namespace or key", async () => {
      await store.set("ns1", "k1", "v1");
      expect(await store.get("ns1", "k1")).toBe("v1");
      expect(await store.get("ns1", "nope")).toBeUndefined();
      expect(await store.get("nope", "k1")).toBeUndefined();
    });

    it("stores the empty string and unicode values as given", async () => {
      await store.set("ns", "empty", "");
      await store.set("ns", "ключ 🔑", 'värde\n"quoted"');
      expect(await store.get("ns", "empty")).toBe("");
      expect(await store.get("ns", "ключ 🔑")).toBe('värde\n"quoted"');
    });

    it("never returns a key once its ttl in ms has elapsed, exactly", async () => {
      await store.set("ns", "k", "v", 1000);
      await clock.advance(999);
      expect(await store.get("ns", "k")).toBe("v");
      await clock.advance(1);
      expect(await store.get("ns", "k")).toBeUndefined();
      expect(await store.listKeys("ns")).toEqual([]);
      expect(await store.deleteKey("ns", "k")).toBe(false);
    });

    it("treats ttl 0 or absent as no expiry", async () => {
      await store.set("ns", "zero", "v", 0);
      await store.set("ns", "absent", "v");
      await clock.advance(10 * 365 * 24 * 3600 * 1000);
      expect(await store.get("ns", "zero")).toBe("v");
      expect(await store.get("ns", "absent")).toBe("v");
    });

    it("resets value and ttl when a key is overwritten", async () => {
      await store.set("ns", "k", "old", 1000);
      await clock.advance(900);
      await store.set("ns", "k", "new", 1000);
      await clock.advance(900);
      expect(await store.get("ns", "k")).toBe("new");
      await store.set("ns", "k", "forever");
      await clock.advance(5000);
      expect(await store.get("ns", "k")).toBe("forever");
    });

    it("lists keys and namespaces sorted, and undefined keys for a missing namespace", async () => {
      await store.set("b", "k2", "v");
      await store.set("b", "k1", "v");
      await store.set("a", "k", "v");
      expect(await store.listNamespaces()).toEqual(["a", "b"]);
      expect(await store.listKeys("b")).toEqual(["k1", "k2"]);
      expect(await store.listKeys("missing")).toBeUndefined();
    });

    it("keeps a namespace whose keys were all deleted until the namespace is deleted", async () => {
      await store.set("ns", "k", "v");
      expect(await store.deleteKey("ns", "k")).toBe(true);
      expect(await store.deleteKey("ns", "k")).toBe(false);
      expect(await store.listKeys("ns")).toEqual([]);
      expect(await store.deleteNamespace("ns")).toBe(true);
      expect(await store.deleteNamespace("ns")).toBe(false);
      expect(await store.listNamespaces()).toEqual([]);
      expect(await store.get("ns", "k")).toBeUndefined();
    });

    it("deletes every key of a deleted namespace, and a re-created namespace starts empty", async () => {
      await store.set("ns", "k1", "v");
      await store.set("ns", "k2", "v");
      await store.deleteNamespace("ns");
      await store.set("ns", "k3", "v");
      expect(await store.listKeys("ns")).toEqual(["k3"]);
    });

    it("refuses a new key beyond maxKeysPerNamespace but allows overwrites and other namespaces", async () => {
      await store.set("ns", "k1", "v");
      await store.set("ns", "k2", "v");
      await store.set("ns", "k3", "v", 100);
      await expect(store.set("ns", "k4", "v")).rejects.toBeInstanceOf(KeyLimitExceededError);
      await store.set("ns", "k1", "overwritten");
      await store.set("other", "k4", "v");
      expect(await store.get("ns", "k4")).toBeUndefined();
      await clock.advance(100); // k3 expires, freeing a slot
      await store.set("ns", "k4", "v");
      expect(await store.listKeys("ns")).toEqual(["k1", "k2", "k4"]);
    });

    it("answers concurrent writes consistently", async () => {
      await Promise.all(Array.from({ length: 3 }, (_, i) => store.set("ns", `k${i}`, `v${i}`)));
      expect(await store.listKeys("ns")).toEqual(["k0", "k1", "k2"]);
    });

    if (factory.reopen !== undefined) {
      const reopen = factory.reopen;
      it("keeps entries, expiry and deletions across a restart", async () => {
        await store.set("ns", "keep", "v1");
        await store.set("ns", "short", "v2", 500);
        await store.set("ns", "gone", "v3");
        await store.deleteKey("ns", "gone");
        await store.set("dropped", "k", "v");
        await store.deleteNamespace("dropped");
        store = await reopen(store, options());
        expect(await store.get("ns", "keep")).toBe("v1");
        expect(await store.get("ns", "short")).toBe("v2");
        expect(await store.listNamespaces()).toEqual(["ns"]);
        await clock.advance(500);
        expect(await store.listKeys("ns")).toEqual(["keep"]);
      });
    }
  });
}

/** The limits of every adapter: namespaces and bytes refused with StoreLimitExceededError, deletes always taken. */
function describeLimitsContract(name: string, factory: KeyValueStoreFactory): void {
  describe(`KeyValueStore contract, limits: ${name}`, () => {
    let clock: SteppingClock;
    let store: KeyValueStore;
    const open = async (limits: { maxNamespaces?: number; maxTotalBytes?: number }) => {
      store = await factory.create({ clock, maxKeysPerNamespace: 10, ...limits });
    };

    beforeEach(() => {
      clock = createSteppingClock();
    });
    afterEach(async () => {
      await store?.close();
    });

    it("refuses a new namespace beyond maxNamespaces, takes keys in those it has, and takes one again after a delete", async () => {
      await open({ maxNamespaces: 2 });
      await store.set("a", "k", "v");
      await store.set("b", "k", "v");
      await expect(store.set("c", "k", "v")).rejects.toBeInstanceOf(StoreLimitExceededError);
      await expect(store.set("c", "k", "v")).rejects.toThrow(/maxNamespaces \(2\)/);
      await store.set("a", "k2", "v");
      expect(await store.listNamespaces()).toEqual(["a", "b"]);
      expect(await store.deleteNamespace("b")).toBe(true);
      await store.set("c", "k", "v");
      expect(await store.listNamespaces()).toEqual(["a", "c"]);
    });

    it("refuses a write that would take the UTF-8 bytes of keys and values past maxTotalBytes; overwrites and deletes make room", async () => {
      await open({ maxTotalBytes: 20 });
      await store.set("ns", "k1", "12345678"); // 10 bytes
      await expect(store.set("ns", "k2", "123456789")).rejects.toThrow(/maxTotalBytes \(20\)/);
      expect(await store.get("ns", "k2")).toBeUndefined();
      await store.set("ns", "k1", "1234567"); // 9 bytes
      await store.set("ns", "k2", "123456789"); // 11 bytes: 20 in all
      await expect(store.set("ns", "é", "")).rejects.toBeInstanceOf(StoreLimitExceededError); // 2 bytes
      expect(await store.deleteKey("ns", "k1")).toBe(true);
      await store.set("ns", "ключ", "x"); // 9 bytes: 20 again
      expect(await store.get("ns", "ключ")).toBe("x");
    });

    it("lets the bytes of an expired key go to a new write", async () => {
      await open({ maxTotalBytes: 20 });
      await store.set("ns", "k1", "12345678", 1000);
      await store.set("ns", "k2", "12345678");
      await clock.advance(1000);
      await store.set("ns", "k3", "12345678");
      expect(await store.listKeys("ns")).toEqual(["k2", "k3"]);
    });

    if (factory.reopen !== undefined) {
      const reopen = factory.reopen;
      it("opens a store over its limits: reads and deletes go, every write is refused until it is under them again", async () => {
        await open({});
        for (const ns of ["a", "b", "c"]) await store.set(ns, "key", "value-of-20-bytes");
        store = await reopen(store, { clock, maxKeysPerNamespace: 10, maxNamespaces: 2, maxTotalBytes: 50 });
        expect(await store.get("a", "key")).toBe("value-of-20-bytes");
        expect(await store.listNamespaces()).toEqual(["a", "b", "c"]);
        await expect(store.set("a", "key", "v")).rejects.toThrow(/over its limits/);
        await expect(store.set("a", "other", "v")).rejects.toBeInstanceOf(StoreLimitExceededError);
        expect(await store.deleteKey("c", "key")).toBe(true);
        await expect(store.set("a", "other", "v")).rejects.toThrow(/3 namespaces/);
        expect(await store.deleteNamespace("c")).toBe(true);
        await store.set("a", "other", "v");
        expect(await store.get("a", "other")).toBe("v");
      });
    }
  });
}
