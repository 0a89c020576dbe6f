// The browser client every page shares: HTTP calls, the room socket (reconnecting with backoff),
// tokens kept per room code, seat colours and countdowns. Each request and socket says the
// page's language, so the server's error messages come in it.
import { lang } from "/static/common/i18n.js";

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** The listeners el() and listen() gave each element, so that morph() can swap them. */
const listeners = new WeakMap();

/** node.addEventListener, remembered for morph(). */
export function listen(node, type, handler) {
  node.addEventListener(type, handler);
  const known = listeners.get(node);
  if (known) known.push([type, handler]);
  else listeners.set(node, [[type, handler]]);
}

/** Builds an element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) listen(node, key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style" && typeof value === "object") {
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith("--")) node.style.setProperty(name, v);
        else node.style[name] = v;
      }
    } else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/**
 * Puts ``children`` in ``box`` as ``box.replaceChildren`` would, but keeps each element already
 * there that stands for the same thing as its fresh counterpart (same place, tag, id and
 * ``data-act``, ``-card``, ``-key``, ``-tab``, ``-area``, ``-change``): it takes the fresh one's
 * attributes, listeners and content. A phone is drawn again on every state, and another seat's
 * move sends one: a tap that began on an element replaced meanwhile ends on another, which the
 * browser calls no click, and the tap is lost. A folded list (``details``) the player opened
 * stays open. Only for content built with el() and listen(), whose listeners are known.
 */
export function morph(box, ...children) {
  const fresh = children
    .flat()
    .filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  morphChildren(box, fresh);
}

const IDENTITY = ["act", "card", "key", "tab", "area", "change"];

function sameThing(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.id === b.id && IDENTITY.every((k) => a.dataset[k] === b.dataset[k]);
}

function morphChildren(parent, fresh) {
  const old = [...parent.childNodes];
  if (old.length !== fresh.length || !old.every((node, i) => sameThing(node, fresh[i]))) {
    parent.replaceChildren(...fresh);
    return;
  }
  for (const [i, node] of old.entries()) morphNode(node, fresh[i]);
}

function morphNode(node, next) {
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== next.nodeValue) node.nodeValue = next.nodeValue;
    return;
  }
  const keep = node.nodeName === "DETAILS" ? "open" : null; // the player's, not the state's
  for (const { namespaceURI, localName } of [...node.attributes]) {
    if (localName !== keep && !next.hasAttributeNS(namespaceURI, localName)) {
      node.removeAttributeNS(namespaceURI, localName);
    }
  }
  for (const { namespaceURI, localName, name, value } of [...next.attributes]) {
    if (localName !== keep && node.getAttributeNS(namespaceURI, localName) !== value) {
      node.setAttributeNS(namespaceURI, name, value);
    }
  }
  if (node instanceof HTMLInputElement) {
    node.checked = next.checked;
    if (node.value !== next.value) node.value = next.value;
  }
  // A list's choice is the new state's, unless the user is choosing in it now (read before its
  // options may move over).
  const choice =
    node instanceof HTMLSelectElement && node !== document.activeElement ? next.value : null;
  for (const [type, handler] of listeners.get(node) || []) node.removeEventListener(type, handler);
  listeners.delete(node);
  for (const [type, handler] of listeners.get(next) || []) listen(node, type, handler);
  morphChildren(node, [...next.childNodes]);
  if (choice !== null && node.value !== choice) node.value = choice;
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** A JSON call to the server; refusals become an ApiError with the server's code. */
export async function api(method, path, body, token) {
  const headers = { "Accept-Language": lang };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = answer.status === 204 ? null : await answer.json().catch(() => null);
  if (!answer.ok) {
    throw new ApiError(data?.code || "http", data?.message || answer.statusText, answer.status);
  }
  return data;
}

// Tokens live in this browser's localStorage, one per room code, under the same keys as the
// lobby page, so a reload or a phone that slept comes back to its seat.
const store = window.localStorage;
export const tokens = {
  seat: (code) => store.getItem(`recordroom.seat.${code}`),
  setSeat: (code, token) => store.setItem(`recordroom.seat.${code}`, token),
  dropSeat: (code) => store.removeItem(`recordroom.seat.${code}`),
  host: (code) => store.getItem(`recordroom.host.${code}`),
  setHost: (code, token) => store.setItem(`recordroom.host.${code}`, token),
  dropHost: (code) => store.removeItem(`recordroom.host.${code}`),
  name: () => store.getItem("recordroom.name") || "",
  setName: (name) => store.setItem("recordroom.name", name),
};

/**
 * Says a refusal or a problem in words in an error line of the page (every page keeps its error
 * lines as `role="alert"` paragraphs), or clears it with "". `where`: the line's selector, the
 * page's `#error` when not given.
 */
export function toast(text, where = "#error") {
  const line = $(where);
  if (line) line.textContent = text || "";
}

export const normaliseCode = (text) =>
  (text || "")
    .trim()
    .toUpperCase()
    .replace(/[^A-Z]/g, "");

/** The server's own close codes (docs/protocol.md, "WebSocket"). */
export const CLOSE = Object.freeze({
  KICKED: 4000,
  BAD_TOKEN: 4403,
  NOT_FOUND: 4404,
  RATE_LIMITED: 4429,
});
const RATE_LIMITED_DELAY = 4000;

/**
 * One WebSocket to a room. Reconnects with backoff (0.5 s doubling up to 8 s) whenever the
 * connection drops for a reason other than the server refusing us (close codes 4000-4999). A
 * refusal for too many connects (4429) is no refusal of the token: it is tried again later (4 s
 * doubling up to 32 s). Any other refusal stops the socket and is handed to `onClosed`.
 * `onState(message)`, `onError(message)`, `onAgain(code)`, `onClosed(code)`, `onLink(up)`.
 */
export class RoomSocket {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
    this.delay = 500;
    this.limitedDelay = RATE_LIMITED_DELAY;
    this.stopped = false;
    this.socket = null;
    this.pinger = null;
    this.open();
    // A phone that wakes up: check the link at once instead of waiting for the backoff.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.stopped && !this.isOpen()) {
        this.reopenSoon(0);
      }
    });
  }

  isOpen() {
    return this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  open() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = `?${this.token ? `token=${encodeURIComponent(this.token)}&` : ""}lang=${encodeURIComponent(lang)}`;
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${this.code}${query}`);
    this.socket = socket;
    socket.onopen = () => {
      this.delay = 500;
      this.limitedDelay = RATE_LIMITED_DELAY;
      this.handlers.onLink?.(true);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        this.version = message.version;
        this.handlers.onState?.(message);
      } else if (message.type === "error") {
        this.handlers.onError?.(message);
      } else if (message.type === "again") {
        this.handlers.onAgain?.(message.code);
      }
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.pinger);
      this.handlers.onLink?.(false);
      if (this.stopped) return;
      if (event.code === CLOSE.RATE_LIMITED) {
        this.reopenSoon(this.limitedDelay);
        this.limitedDelay = Math.min(this.limitedDelay * 2, 32000);
        return;
      }
      if (event.code >= 4000 && event.code < 5000) {
        this.stopped = true;
        this.handlers.onClosed?.(event.code);
        return;
      }
      this.reopenSoon(this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  reopenSoon(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  send(message) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Sends an action made on the newest state we have seen. */
  act(action) {
    return this.send({ type: "act", version: this.version, action });
  }

  /** Moves to another room (play again) with the same token. */
  moveTo(code) {
    this.code = code;
    this.version = null;
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    this.open();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
  }
}

// Eight seat colours, told apart by hue and lightness, readable on the dark table.
export const SEAT_COLOURS = [
  "#f5a524",
  "#ff5c7a",
  "#4cc9f0",
  "#8bd450",
  "#c77dff",
  "#ff8c42",
  "#2ec4b6",
  "#f2e86d",
];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const initials = (name) =>
  (name || "?")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0])
    .join("")
    .toUpperCase();

/**
 * A server duration ("seconds left at send time") turned into a local deadline, so pages count
 * down between messages: `deadline(12.5)` is the Date.now() at which those seconds are up.
 */
export const deadline = (seconds) =>
  typeof seconds === "number" ? Date.now() + seconds * 1000 : null;
export const secondsLeft = (until) =>
  until === null ? null : Math.max(0, Math.ceil((until - Date.now()) / 1000));
