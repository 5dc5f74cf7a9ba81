import { describe, expect, it } from "vitest";
import { hostWithoutPort, serverTags, sessionTags } from "../../../../core/polling/server-tags.ts";

const SERVER = {
  host: "sense1.example.com:4747",
  serverName: "sense1",
  serverDescription: "Central node",
  serverTags: { server_group: "PROD", serverLocation: "Berlin" },
};

describe("hostWithoutPort", () => {
  it.each([
    ["sense1.example.com:4747", "sense1.example.com"],
    ["sense1", "sense1"],
    ["10.0.0.5:4747", "10.0.0.5"],
    ["[::1]:4747", "::1"],
    ["[fe80::1]", "fe80::1"],
    ["::1", "::1"],
    ["fe80::1:2", "fe80::1:2"],
  ])("%s → %s", (hostPort, host) => {
    expect(hostWithoutPort(hostPort)).toBe(host);
  });
});

describe("serverTags", () => {
  it("has host without port, server_name, server_description and every configured tag", () => {
    expect(serverTags(SERVER)).toEqual({
      host: "sense1.example.com",
      server_name: "sense1",
      server_description: "Central node",
      server_group: "PROD",
      serverLocation: "Berlin",
    });
  });

  it("takes the bracketed IPv6 address as host", () => {
    expect(serverTags({ ...SERVER, host: "[::1]:4747" }).host).toBe("::1");
  });

  it("never lets a configured tag replace a fixed one", () => {
    const tags = serverTags({
      ...SERVER,
      serverTags: { host: "other", server_name: "x", server_description: "y", env: "test" },
    });

    expect(tags).toEqual({
      host: "sense1.example.com",
      server_name: "sense1",
      server_description: "Central node",
      env: "test",
    });
  });
});

describe("sessionTags", () => {
  it("adds the virtual proxy prefix and the session host with its port to the server tags", () => {
    expect(sessionTags(serverTags(SERVER), "/hdr", "sense1.example.com:4243")).toEqual({
      host: "sense1.example.com",
      server_name: "sense1",
      server_description: "Central node",
      server_group: "PROD",
      serverLocation: "Berlin",
      user_session_virtual_proxy: "/hdr",
      user_session_host: "sense1.example.com:4243",
    });
  });

  it("tags the root proxy as /", () => {
    expect(sessionTags({}, "/", "h:4243").user_session_virtual_proxy).toBe("/");
  });
});
