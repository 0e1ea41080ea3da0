// The Request, Response and Headers the service builds: the server adapter's own
// (@whatwg-node/fetch). The adapter writes the buffered body of its own Response straight to the
// socket and gives every status its reason phrase; a global (undici) Response would reach it as a
// stream, read chunk by chunk, with no reason phrase. Its Request is also cheaper to build.
export { Headers, Request, Response } from '@whatwg-node/fetch';
