/**
 * What `steward service install` tells the Windows service wrapper (WinSW 1.17): the XML for the
 * default service, in the forms WinSW 1.17 reads (time spans like "10 sec", the <service> element
 * first, one <argument> per word so that it quotes a path with spaces), each account, escaping,
 * and the names and accounts refused. The wrapper itself cannot run here or under Wine (it needs
 * .NET); the handbook's Windows page says what that leaves unproven.
 */
import { describe, expect, it } from "vitest";
import {
  checkServiceName,
  parseAccount,
  type ServiceDefinition,
  ServiceDefinitionError,
  wrapperXml,
} from "../../../../local/cli/service-definition.ts";

const DEFINITION: ServiceDefinition = {
  name: "Steward",
  version: "15.0.0",
  executable: "C:\\Program Files\\Steward\\steward.exe",
  config: "C:\\ProgramData\\Steward\\steward.yaml",
  workingDirectory: "C:\\ProgramData\\Steward",
  logDirectory: "C:\\ProgramData\\Steward\\log",
  account: parseAccount("LocalService"),
};

describe("the service wrapper's XML", () => {
  it("runs steward.exe start --config FILE in the configuration's folder, at boot, as LocalService, restarting with a back-off, stopping within 15 s, logging to rolled files", () => {
    expect(wrapperXml(DEFINITION)).toBe(`<service>
  <!-- Written by "steward service install"; change it by uninstalling and installing again. -->
  <id>Steward</id>
  <name>Steward</name>
  <description>Steward 15.0.0: audit event ingest, management REST API and on-prem agent for the platform (configuration C:\\ProgramData\\Steward\\steward.yaml)</description>
  <executable>C:\\Program Files\\Steward\\steward.exe</executable>
  <argument>start</argument>
  <argument>--config</argument>
  <argument>C:\\ProgramData\\Steward\\steward.yaml</argument>
  <workingdirectory>C:\\ProgramData\\Steward</workingdirectory>
  <startmode>Automatic</startmode>
  <serviceaccount>
    <domain>NT AUTHORITY</domain>
    <user>LocalService</user>
    <password></password>
  </serviceaccount>
  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="30 sec"/>
  <onfailure action="restart" delay="60 sec"/>
  <resetfailure>1 hour</resetfailure>
  <stopparentprocessfirst>true</stopparentprocessfirst>
  <stoptimeout>15 sec</stoptimeout>
  <logpath>C:\\ProgramData\\Steward\\log</logpath>
  <log mode="roll-by-size">
    <sizeThreshold>10240</sizeThreshold>
    <keepFiles>8</keepFiles>
  </log>
</service>
`);
  });

  it("escapes what XML reserves in paths and names", () => {
    const xml = wrapperXml({
      ...DEFINITION,
      config: 'C:\\Ops & <Tools>\\"steward".yaml',
      workingDirectory: "C:\\Ops & <Tools>",
    });

    expect(xml).toContain("<argument>C:\\Ops &amp; &lt;Tools&gt;\\&quot;steward&quot;.yaml</argument>");
    expect(xml).toContain("<workingdirectory>C:\\Ops &amp; &lt;Tools&gt;</workingdirectory>");
  });

  it("runs as NetworkService, as LocalSystem (the service control manager's default) or as a named account that gets the right to log on as a service and no password", () => {
    const accountXml = (account: string) => {
      const xml = wrapperXml({ ...DEFINITION, account: parseAccount(account) });
      return /<serviceaccount>[\s\S]*<\/serviceaccount>/.exec(xml)?.[0];
    };

    expect(accountXml("networkservice")).toBe(
      "<serviceaccount>\n    <domain>NT AUTHORITY</domain>\n    <user>NetworkService</user>\n    <password></password>\n  </serviceaccount>",
    );
    expect(accountXml("LocalSystem")).toBeUndefined();
    expect(accountXml("NT AUTHORITY\\LocalService")).toBe(accountXml("LocalService"));
    expect(accountXml("CORP\\svc-steward$")).toBe(
      "<serviceaccount>\n    <domain>CORP</domain>\n    <user>svc-steward$</user>\n    <allowservicelogon>true</allowservicelogon>\n  </serviceaccount>",
    );
  });
});

describe("service names and accounts refused", () => {
  it.each(["", "Steward Agent", "a/b", "a\\b", "x".repeat(81)])("refuses the name %j", (name) => {
    expect(() => checkServiceName(name)).toThrow(ServiceDefinitionError);
  });

  it("takes letters, digits, dots, underscores and dashes", () => {
    expect(checkServiceName("Steward-2_test.a")).toBe("Steward-2_test.a");
  });

  it.each(["svc-steward", "CORP\\", "\\user", "a\\b\\c", "user@corp"])(
    "refuses the account %j",
    (account) => {
      expect(() => parseAccount(account)).toThrow(
        /--account must be LocalService, NetworkService, LocalSystem or DOMAIN\\user/,
      );
    },
  );
});
