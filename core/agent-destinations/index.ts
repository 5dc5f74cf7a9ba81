/**
 * The agent destinations module's only door: code outside core/agent-destinations/ imports this
 * file and nothing else of the module, so its batching, buffers and per-destination writers can
 * be rearranged without touching the parts that write through them. It gives the destinations of
 * one agent part and the concurrency limit the parts share.
 */
export { type ConcurrencyLimit, createConcurrencyLimit } from "./concurrency-limit.ts";
export { type AgentEventDestinations, createEventDestinations } from "./create-event-destinations.ts";
