// What every game's phone page shares: the room code of the address, the seat link of a new
// phone, the join form (a seat token kept per room code), one room socket that reconnects, the
// token policy, the one choice in flight (sent again after a stale refusal while it still
// stands) and the error line. A page brings its own drawing and says what its choices mean.
import { $, api, CLOSE, normaliseCode, RoomSocket, toast, tokens } from "/static/common/client.js";
import { errorText, t } from "/static/common/i18n.js";

/**
 * The token policy: a seat token is forgotten only when the server says it holds nothing any
 * more (the seat was removed or given to another phone, the token is unknown, the room is gone).
 * A rate limit, a network drop or a server restart keeps it: the seat is still this phone's.
 */
const FORGET_TOKEN = new Set([CLOSE.KICKED, CLOSE.BAD_TOKEN, CLOSE.NOT_FOUND]);
export const forgetsToken = (closeCode) => FORGET_TOKEN.has(closeCode);

/** The room code of the page's address (`/join/KQTM` or `?room=KQTM`), or "". */
export const pageCode = () =>
  normaliseCode(
    location.pathname.split("/join/")[1] || new URLSearchParams(location.search).get("room"),
  );

/**
 * A seat link from the table (a new phone for a seat): keeps its token as the seat's, then drops
 * it from the address bar so it does not stay in the history or get shared by accident.
 */
export function keepSeatLink(code) {
  const linked = new URLSearchParams(location.search).get("seat_token");
  if (code && linked) {
    tokens.setSeat(code, linked);
    history.replaceState(null, "", `/join/${code}`);
  }
}

export { toast }; // the phone's error line is the page's `#error`

/**
 * The status of room `code` ("lobby", "playing", "over"), for a join form that says how to get
 * back into a game that has started; null when it cannot be had (no such room, offline).
 */
export async function roomStatus(code) {
  try {
    return (await api("GET", `/api/rooms/${code}`)).status;
  } catch {
    return null;
  }
}

/**
 * Says why the join form cannot go on, in its error line under the button, and brings that line
 * on screen: on a small phone it can sit below the fold, and a tap that changes nothing visible
 * looks like a tap that did nothing.
 */
export function joinError(message) {
  toast(message, "#join-error");
  const line = $("#join-error");
  const box = line.getBoundingClientRect();
  if (message && (box.top < 0 || box.bottom > window.innerHeight))
    line.scrollIntoView({ block: "center" });
}

/** Shows the join form (keeping what was typed), with a message under it. */
export function showJoinForm(code, message) {
  $("#join-screen").hidden = false;
  $("#seat-screen").hidden = true;
  // The page's script starts once its catalogue is in: keep what was typed meanwhile.
  if (!$("#join-code").value) $("#join-code").value = code;
  if (!$("#join-name").value) $("#join-name").value = tokens.name();
  $("#join-button").disabled = false;
  joinError(message);
}

/**
 * Takes the next free seat of room `code` for `name` (`POST /api/rooms/{code}/seats`) unless this
 * browser holds that room's seat token already (`reuse`: false for a room just created, whose code
 * may be that of an old room), and keeps the token and the name. Refusals are thrown as the
 * server's ApiError.
 */
export async function takeSeat(code, name, { reuse = true } = {}) {
  if (!reuse || !tokens.seat(code)) {
    const seat = await api("POST", `/api/rooms/${code}/seats`, { name });
    tokens.setSeat(code, seat.token);
  }
  tokens.setName(name);
}

/**
 * The join form: a 4-letter code and a name take a seat (takeSeat), then `enter(code)`.
 * `words.noRoom(code)` and `words.started()` say the two refusals a player meets.
 */
export function bindJoinForm(words, enter) {
  $("#join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = normaliseCode($("#join-code").value);
    const name = $("#join-name").value.trim();
    if (code.length !== 4) {
      joinError(t("common.code_letters"));
      $("#join-code").focus();
      return;
    }
    // A name of spaces only passes the field's `required`: ask for one here, in the player's
    // words, rather than sending it and showing the server's refusal.
    if (!name) {
      joinError(t("common.name_needed"));
      $("#join-name").focus();
      return;
    }
    $("#join-button").disabled = true;
    try {
      await takeSeat(code, name);
      enter(code);
    } catch (error) {
      joinError(
        error.code === "room/not_found"
          ? words.noRoom(code)
          : error.code === "room/started"
            ? words.started()
            : error.code === "room/full"
              ? t("error.room/full")
              : errorText(error),
      );
    } finally {
      $("#join-button").disabled = false;
    }
  });
}

/**
 * A seat's connection to its room, with the one choice it has sent and not yet seen.
 *
 * `options.phaseKey(view)` names the moment a choice was made for; `options.settled(wish, state)`
 * says a state shows the choice arrived (or made it pointless); `options.render(state)` draws;
 * `options.refused(closeCode)` shows the join form after the server let the seat go (the token
 * already forgotten when the policy says so); `options.moved(code)` follows "play again".
 * `wish` is `{action, key, legal, version}`.
 */
export class SeatLink {
  constructor(options) {
    this.options = options;
    this.code = "";
    this.live = null;
    this.last = null;
    this.wish = null;
    this.retry = false;
  }

  /** Opens (or opens again) the socket of room `code` with this browser's seat token. */
  connect(code) {
    this.code = code;
    history.replaceState(null, "", `/join/${code}`);
    if (this.live) this.live.stop();
    this.live = new RoomSocket(code, tokens.seat(code), {
      onState: (state) => {
        this.last = state;
        this.options.render(state);
      },
      onError: (message) => this.refused(message),
      onAgain: (newCode) => this.moveTo(newCode),
      onClosed: (closeCode) => {
        if (forgetsToken(closeCode)) tokens.dropSeat(this.code);
        this.options.refused(closeCode);
      },
      // Back online: a choice sent while the link was down never arrived; the state that comes
      // with the new connection sends it again if it still stands.
      onLink: (up) => {
        const banner = $("#link");
        if (banner) banner.hidden = up;
        if (up && this.wish) this.retry = true;
      },
    });
  }

  /** Play again: the same seat token in the new room. */
  moveTo(newCode) {
    const token = tokens.seat(this.code);
    if (token) tokens.setSeat(newCode, token);
    this.code = newCode;
    history.replaceState(null, "", `/join/${newCode}`);
    this.wish = null;
    this.live.moveTo(newCode);
    this.options.moved?.(newCode);
  }

  /** Sends a choice made on the newest state; false when there is no game to choose in. */
  send(action) {
    const last = this.last;
    if (!last?.view) return false;
    toast("");
    this.wish = {
      action,
      key: this.options.phaseKey(last.view),
      legal: JSON.stringify(last.legal_actions),
      version: last.version,
    };
    if (!this.live.act(action)) this.retry = true; // offline: sent again when the link is back
    return true;
  }

  /** A message that is no action (take back); false when offline. */
  post(message) {
    return Boolean(this.live?.send(message));
  }

  /** An action that is no choice to wait for (a seat's own setting); false when offline. */
  act(action) {
    return Boolean(this.live?.act(action));
  }

  /**
   * Called by the page's drawing of each state of a game: forgets a choice the state shows, and
   * sends the one a stale refusal or a lost link held back, on this state, if it still stands.
   */
  reconcile(state) {
    if (this.wish && this.options.settled(this.wish, state)) this.wish = null;
    if (this.retry && this.wish) {
      this.wish.version = state.version;
      this.live.act(this.wish.action);
    }
    this.retry = false;
  }

  refused(message) {
    // Stale: the server had moved on when our choice arrived. If we already hold a newer state
    // than the one we chose on, look at it now (the drawing sends the choice again if it still
    // stands); otherwise the newer state is on its way and its arrival does the same.
    if (message.code === "action/stale") {
      this.retry = true;
      if (this.last && this.wish && this.last.version > this.wish.version)
        this.options.render(this.last);
      return;
    }
    this.wish = null;
    toast(errorText(message));
    if (this.last) this.options.render(this.last);
  }
}
