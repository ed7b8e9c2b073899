// The WebSocket to the box: one JSON object per message (docs/protocol.md), reconnecting
// by itself when a phone locks, sleeps or loses the café Wi-Fi.
//
// The page never talks to the socket directly: it gives `Connection` a `hello()` callback
// that builds the first message of every connection (room code and reconnect token), and
// receives every message from the box through `onMessage`.

const PING_EVERY_MS = 20000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 5000;
// After the page comes back from the background the old socket may be silently dead
// (the phone slept, the access point dropped us); if a ping gets no answer this fast,
// we start over instead of waiting for TCP to notice.
const STALE_CHECK_MS = 4000;

export function socketUrl(loc = window.location) {
  return (loc.protocol === "https:" ? "wss://" : "ws://") + loc.host + "/ws";
}

export class Connection {
  /**
   * @param {{hello: () => object|null, onMessage: (msg: object) => void,
   *          onStatus: (status: "connecting"|"open"|"reconnecting"|"waiting"|"stopped")
   *            => void}} hooks
   * "waiting": no socket, as there is nothing to say yet (`hello()` gives null: no room
   * code typed); `start()` connects once there is.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.ws = null;
    this.stopped = true;
    this.backoff = BACKOFF_FIRST_MS;
    this.retryTimer = null;
    this.pingTimer = null;
    this.staleTimer = null;
    this.helloSent = false;
    this.everOpened = false;
    this.queue = [];

    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
    window.addEventListener("online", () => this.wake());
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) this.wake();
    });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Connect (or reconnect now); does nothing while a connection is open or opening. */
  start() {
    this.stopped = false;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN
        || this.ws.readyState === WebSocket.CONNECTING)) {
      return;
    }
    this.clearRetry();
    this.open();
  }

  /** Close for good (after `kicked`); nothing reconnects until `start()`. */
  stop() {
    this.stopped = true;
    this.clearRetry();
    this.stopPing();
    this.queue = [];
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.hooks.onStatus("stopped");
  }

  /** Send `hello` now if the socket is open and it was not sent on this connection yet. */
  sayHello() {
    if (!this.isOpen || this.helloSent) return;
    const hello = this.hooks.hello();
    if (!hello) return;
    this.helloSent = true;
    this.ws.send(JSON.stringify(hello));
    for (const msg of this.queue.splice(0)) this.ws.send(JSON.stringify(msg));
  }

  /** Send a message after `hello`; queued while (re)connecting unless `queue` is false. */
  send(msg, { queue = true } = {}) {
    if (this.isOpen && this.helloSent) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    if (queue) this.queue.push(msg);
    return false;
  }

  /** The phone is awake or back online: reconnect at once, or check the socket still lives. */
  wake() {
    if (this.stopped) return;
    this.backoff = BACKOFF_FIRST_MS;
    if (!this.ws || this.ws.readyState === WebSocket.CLOSED
        || this.ws.readyState === WebSocket.CLOSING) {
      this.clearRetry();
      this.open();
      return;
    }
    if (this.isOpen && this.helloSent && !this.staleTimer) {
      const ws = this.ws;
      this.staleTimer = setTimeout(() => {
        this.staleTimer = null;
        if (this.ws === ws) ws.close();
      }, STALE_CHECK_MS);
      this.rawSend({ type: "ping" });
    }
  }

  open() {
    this.helloSent = false;
    // Nothing to say hello with yet (the room code is being typed): no socket at all, so
    // the box's hello timeout never closes one under the typing ("reconnecting" for
    // nothing); the room form calls `start()` with the code.
    if (!this.hooks.hello()) {
      this.ws = null;
      this.hooks.onStatus("waiting");
      return;
    }
    this.hooks.onStatus(this.everOpened ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(socketUrl());
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.everOpened = true;
      this.backoff = BACKOFF_FIRST_MS;
      this.hooks.onStatus("open");
      this.startPing();
      this.sayHello();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      this.clearStale();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (msg && typeof msg === "object" && typeof msg.type === "string") {
        this.hooks.onMessage(msg);
      }
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      this.clearStale();
      if (this.stopped) return;
      // Closed with nothing to say (a wrong room code, then the box's hello timeout):
      // calm, not "reconnecting"; the next code typed connects again.
      if (!this.hooks.hello()) {
        this.hooks.onStatus("waiting");
        return;
      }
      this.scheduleRetry();
    });
    // An error is always followed by a close, which does the retrying.
  }

  rawSend(msg) {
    if (this.isOpen) this.ws.send(JSON.stringify(msg));
  }

  scheduleRetry() {
    this.clearRetry();
    this.hooks.onStatus("reconnecting");
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  clearRetry() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (this.helloSent) this.rawSend({ type: "ping" });
    }, PING_EVERY_MS);
  }

  stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  clearStale() {
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = null;
  }
}
