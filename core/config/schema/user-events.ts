/** userEvents: session and connection events from the platform's proxy over UDP. */
import { excludeUserList, userEventsUdpSchema } from "./platform-events.ts";
import { bool, list, nameValueList, nonEmptyStr, requiredStr, section } from "./primitives.ts";

const topic = (name: string) => section({ enable: bool(true), topic: nonEmptyStr(name) });

export const userEventsSchema = section({
  enable: bool(false),
  excludeUser: excludeUserList(),
  udpServerConfig: userEventsUdpSchema,
  tags: nameValueList(),
  sendToMQTT: section({
    enable: bool(false),
    postTo: section({
      everythingTopic: topic("qliksense/userevent"),
      sessionStartTopic: topic("qliksense/userevent/session/start"),
      sessionStopTopic: topic("qliksense/userevent/session/stop"),
      connectionOpenTopic: topic("qliksense/userevent/connection/open"),
      connectionCloseTopic: topic("qliksense/userevent/connection/close"),
    }),
  }),
  sendToTimeseriesdb: section({ enable: bool(true) }),
  sendToObsPlatform: section({
    enable: bool(false),
    destinationAccount: list(requiredStr),
    scramble: bool(true),
  }),
});
