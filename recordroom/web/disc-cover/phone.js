// The phone: a Selection Disk. Join a room with a name, then vote for the sleeve that fits the
// song, secretly, changing your mind until the last vote is in.

import { andList, errorText, onLanguage, t } from "/static/common/i18n.js";
import {
  $,
  api,
  deadline,
  el,
  initials,
  normaliseCode,
  RoomSocket,
  seatColour,
  secondsLeft,
  sleeveImage,
  tierLadder,
  tokens,
  votesByCard,
} from "./common.js";
import { cue, keepAwake } from "./cues.js";

let code = normaliseCode(
  location.pathname.split("/join/")[1] || new URLSearchParams(location.search).get("room"),
);
let live = null;
let last = null; // the newest state message
let wish = null; // the choice we sent and have not seen confirmed: {type, card, key}
let retry = false;
let timerUntil = null; // when the vote timer runs out (local clock)
const awake = keepAwake(() => last?.status === "playing");

// A seat link from the table (a new phone for a seat): keep its token, then drop it from the
// address bar so it does not stay in the history or get shared by accident.
const linked = new URLSearchParams(location.search).get("seat_token");
if (code && linked) {
  tokens.setSeat(code, linked);
  history.replaceState(null, "", `/join/${code}`);
}

function phaseKey(view) {
  return `${view.turn}:${view.phase}:${view.tiebreak_round}`;
}

// ---- joining -------------------------------------------------------------------------------

function showJoin(message) {
  $("#join-screen").hidden = false;
  $("#seat-screen").hidden = true;
  // The page's script starts once its catalogue is in: keep what was typed meanwhile.
  if (!$("#join-code").value) $("#join-code").value = code;
  if (!$("#join-name").value) $("#join-name").value = tokens.name();
  $("#join-button").disabled = false;
  $("#join-error").textContent = message || "";
  (code ? $("#join-name") : $("#join-code")).focus();
  if (code) explainIfStarted(code);
}

/** A phone without its seat's token for a game that has started: how to get back in. */
async function explainIfStarted(roomCode) {
  let info = null;
  try {
    info = await api("GET", `/api/rooms/${roomCode}`);
  } catch {
    return;
  }
  if (roomCode !== code || !$("#seat-screen").hidden || info.status === "lobby") return;
  $("#join-help").hidden = false;
  $("#join-help").textContent =
    info.status === "over"
      ? t("dc.phone.over_started", { code: roomCode })
      : t("dc.phone.started", { code: roomCode });
}

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  code = normaliseCode($("#join-code").value);
  const name = $("#join-name").value.trim();
  if (code.length !== 4) {
    $("#join-error").textContent = t("common.code_letters");
    return;
  }
  $("#join-button").disabled = true;
  try {
    const known = tokens.seat(code);
    if (!known) {
      const seat = await api("POST", `/api/rooms/${code}/seats`, { name });
      tokens.setSeat(code, seat.token);
    }
    tokens.setName(name);
    enter();
  } catch (error) {
    $("#join-error").textContent =
      error.code === "room/not_found"
        ? t("dc.phone.no_room", { code })
        : error.code === "room/started"
          ? t("dc.phone.room_started")
          : error.code === "room/full"
            ? t("error.room/full")
            : errorText(error);
  } finally {
    $("#join-button").disabled = false;
  }
});

function enter() {
  history.replaceState(null, "", `/join/${code}`);
  $("#join-screen").hidden = true;
  $("#seat-screen").hidden = false;
  $("#join-help").hidden = true;
  $("#me-room").textContent = code;
  if (live) live.stop();
  live = new RoomSocket(code, tokens.seat(code), {
    onState: render,
    onError: showError,
    onAgain: playAgain,
    onClosed: closed,
    // Back online: a choice sent while the link was down never arrived; the state that comes
    // with the new connection sends it again if it still stands.
    onLink: (up) => {
      $("#link").hidden = up;
      if (up && wish) retry = true;
    },
  });
}

function playAgain(newCode) {
  const token = tokens.seat(code);
  if (token) tokens.setSeat(newCode, token);
  code = newCode;
  history.replaceState(null, "", `/join/${code}`);
  $("#me-room").textContent = code;
  wish = null;
  live.moveTo(code);
}

function closed(closeCode) {
  if (closeCode === 4000 || closeCode === 4403) {
    tokens.dropSeat(code);
    showJoin(closeCode === 4000 ? t("dc.phone.removed") : t("dc.phone.not_yours"));
  } else if (closeCode === 4404) {
    tokens.dropSeat(code);
    showJoin(t("dc.phone.gone", { code }));
  } else {
    showJoin(t("dc.phone.turned_away"));
  }
}

function showError(message) {
  // Stale: the server had moved on when our vote arrived. If we already hold a newer state than the
  // one we voted on, look at it now (render sends the vote again if it still stands); otherwise the
  // newer state is on its way and its arrival does the same.
  if (message.code === "action/stale") {
    retry = true;
    if (last && wish && last.version > wish.version) render(last);
    return;
  }
  wish = null;
  $("#error").textContent = errorText(message);
  if (last) render(last);
}

// ---- playing -------------------------------------------------------------------------------

function send(action) {
  if (!last?.view) return;
  $("#error").textContent = "";
  wish = { ...action, key: phaseKey(last.view), version: last.version };
  if (!live.act(action)) retry = true; // offline: sent again when the link is back
  render(last);
}

/** The Record cards this seat may pick now, and with which action type. */
function choices(state) {
  const view = state.view;
  const legal = state.legal_actions;
  if (legal.length) return { type: legal[0].type, cards: legal.map((a) => a.card) };
  // A seat that has voted is no longer active but may still change its vote.
  if (view.my_vote && (view.phase === "vote" || view.phase === "tiebreak")) {
    return { type: "vote", cards: view.phase === "vote" ? [1, 2, 3, 4] : view.candidates };
  }
  return { type: null, cards: [] };
}

function render(state) {
  const before = last;
  last = state;
  awake();
  const view = state.view;
  timerUntil =
    state.timer && typeof state.timer.remaining === "number" && !state.listening
      ? deadline(state.timer.remaining)
      : null;
  if (before?.view && view && before.version !== state.version) noticeMoments(before.view, view);
  const me = state.seats[state.seat] || { name: "?" };
  $("#me-name").textContent = me.name;
  const disc = $("#me-disc");
  disc.style.setProperty("--c", seatColour(state.seat ?? 0));
  disc.firstElementChild.textContent = initials(me.name);
  document.title = t("dc.phone.title_name", { name: me.name });

  const lobby = state.status === "lobby" || !view;
  $("#lobby-box").hidden = !lobby;
  renderPlayers(state);
  if (lobby) {
    $("#phase-title").textContent = t("dc.phone.in", { name: me.name });
    $("#phase-hint").textContent = t("dc.phone.wait_start");
    $("#picks").replaceChildren();
    $("#locked").replaceChildren();
    $("#locked").hidden = true;
    $("#points").textContent = "";
    $("#over-box").hidden = true;
    return;
  }
  if (wish && wish.key !== phaseKey(view)) wish = null;
  if (wish && view.my_vote === wish.card) wish = null;
  if (retry && wish) {
    retry = false;
    wish.version = state.version;
    const { type, card } = wish;
    live.act({ type, card });
  }
  retry = false;

  $("#points").replaceChildren(
    view.variant === "competitive"
      ? el("span", {}, el("b", {}, t("common.points", { count: view.my_points ?? 0 })))
      : el("span", {}, `${t("dc.phone.team")} `, el("b", {}, String(view.score ?? 0))),
  );

  if (state.status === "over") return renderOver(state);
  $("#over-box").hidden = true;
  if (me.bot) return renderBotSeat(state, me);
  $("#take-back").hidden = true;
  if (state.listening) return renderListening(state);
  $("#result").hidden = true;
  renderPhase(state);
  renderPicks(state);
  renderLocked(state);
  renderTimer();
}

/** A buzz and a chime when the votes are revealed, and when they tie. */
function noticeMoments(was, now) {
  if (now.mosaic.length > was.mosaic.length) cue("reveal", { volume: 0.08 });
  else if (was.phase === "vote" && (now.phase === "tiebreak" || now.phase === "leader"))
    cue("tie", { volume: 0.08 });
}

function renderTimer() {
  const left = secondsLeft(timerUntil);
  const box = $("#timer");
  const show = left !== null && last?.status === "playing" && !last.listening;
  box.hidden = !show;
  if (show) {
    box.textContent = t("dc.phone.time_left", { count: left });
    box.classList.toggle("urgent", left <= 5);
  }
}
setInterval(renderTimer, 500);

/** While a bot plays this seat: say so, and offer the seat back. */
function renderBotSeat(state, me) {
  $("#result").hidden = true;
  $("#timer").hidden = true;
  $("#phase-title").textContent = t("dc.phone.bot_title");
  $("#phase-hint").textContent = t("dc.phone.bot_hint", {
    level: t(`common.level.${me.level || "normal"}`),
  });
  $("#picks").replaceChildren();
  const box = $("#locked");
  box.hidden = false;
  box.className = "locked";
  box.replaceChildren(
    el("p", {}, t("dc.phone.bot_turn", { turn: state.view.turn, turns: state.view.turns })),
  );
  $("#take-back").hidden = false;
}

/** Before the turn's song plays: "Listen…", and what the last turn gave. */
function renderListening(state) {
  const view = state.view;
  $("#timer").hidden = true;
  $("#phase-title").textContent = t("dc.phone.listen");
  $("#phase-hint").textContent = t("dc.phone.listen_hint", { turn: view.turn, turns: view.turns });
  $("#phase-help").href = "/how-to-play/disc-cover#turn";
  $("#picks").replaceChildren();
  $("#locked").hidden = true;
  $("#locked").replaceChildren();
  renderResult(state);
}

/** The previous turn's result: the sleeve that went into the mosaic, every vote, mine and my points. */
function renderResult(state) {
  const turn = state.view.last_turn;
  const box = $("#result");
  box.hidden = !turn;
  if (!turn) return;
  const names = state.seats.map((s) => s.name);
  const byCard = votesByCard(turn.votes);
  const mine = turn.votes[state.seat];
  const competitive = state.view.variant === "competitive";
  const gain = competitive
    ? turn.scorers.includes(state.seat)
      ? t("dc.phone.plus_you")
      : t("dc.phone.no_point")
    : t("dc.phone.team_gain", { points: turn.points });
  box.replaceChildren(
    el(
      "p",
      { class: "result-title" },
      t("dc.phone.result_title", { turn: turn.turn, card: turn.card }),
    ),
    el(
      "div",
      { class: "result-row" },
      sleeveImage(turn.sleeve, "sleeve-art result-art"),
      el(
        "div",
        {},
        el(
          "p",
          { class: "result-sleeve" },
          `“${turn.sleeve.title || t("dc.sleeve.n", { id: turn.sleeve.id })}”`,
        ),
        el(
          "p",
          { class: "result-mine" },
          mine === turn.card
            ? t("dc.phone.your_pick", { card: mine, gain })
            : mine >= 1
              ? t("dc.phone.you_picked", { card: mine, gain })
              : t("dc.phone.gain_only", { gain }),
        ),
      ),
    ),
    el(
      "ul",
      { class: "result-votes", "aria-label": t("dc.phone.votes_aria") },
      [1, 2, 3, 4].map((card) =>
        el(
          "li",
          {
            class: card === turn.card ? "won" : "",
          },
          el("b", {}, t("dc.record", { card })),
          ": ",
          byCard[card].length
            ? andList(byCard[card].map((s) => (s === state.seat ? t("dc.phone.you") : names[s])))
            : t("dc.phone.no_vote"),
        ),
      ),
    ),
  );
}

function renderPhase(state) {
  const view = state.view;
  const names = state.seats.map((s) => s.name);
  const list = andList((view.candidates || []).map((card) => t("dc.record", { card })));
  let title = t("dc.game.turn", { turn: view.turn, turns: view.turns });
  let hint = t("dc.phone.pick_hint");
  if (view.phase === "tiebreak") {
    title =
      view.tiebreak_round > 1
        ? t("dc.phone.still_tied", { round: view.tiebreak_round })
        : t("dc.phone.tie");
    hint = t("dc.phone.tie_hint", { cards: list });
  } else if (view.phase === "leader") {
    const leading = view.leader === state.seat;
    title = leading
      ? t("dc.phone.you_lead")
      : t("dc.phone.leader_decides", { name: names[view.leader] });
    hint = leading
      ? t("dc.phone.you_lead_hint", { cards: list })
      : t("dc.phone.leader_hint", { cards: list });
  }
  $("#phase-title").textContent = title;
  $("#phase-hint").textContent = hint;
  $("#phase-help").href = `/how-to-play/disc-cover#${view.phase}`;
}

function renderPicks(state) {
  const view = state.view;
  const { type, cards } = choices(state);
  const shown = wish ? wish.card : view.my_vote;
  const revealed =
    view.phase === "tiebreak" || view.phase === "leader" ? votesByCard(view.votes) : null;
  const buttons = view.records.map(({ card, sleeve }) => {
    const allowed = cards.includes(card);
    const chosen = shown === card && view.phase !== "leader";
    const out = view.phase !== "vote" && !(view.candidates || []).includes(card);
    const name = sleeve.title
      ? t("dc.sleeve.by", { title: sleeve.title, artist: sleeve.artist })
      : t("dc.sleeve.n", { id: sleeve.id });
    return el(
      "button",
      {
        class: `pick${chosen ? " chosen" : ""}${out ? " out" : ""}`,
        type: "button",
        disabled: !allowed,
        "aria-pressed": type === "vote" ? String(chosen) : null,
        "aria-label": t("dc.phone.pick_aria", {
          card,
          name,
          mine: chosen ? t("dc.phone.pick_mine") : "",
        }),
        "data-card": card,
        onclick: () => send({ type, card }),
      },
      sleeveImage(sleeve),
      el("span", { class: "number", "aria-hidden": "true" }, String(card)),
      chosen ? el("span", { class: "lock", "aria-hidden": "true" }, wish ? "…" : "✓") : null,
      revealed?.[card].length
        ? el(
            "span",
            { class: "votes", "aria-hidden": "true" },
            revealed[card].map((seat) =>
              el(
                "span",
                { class: "disc tiny", style: { "--c": seatColour(seat) } },
                el("span", {}, initials(state.seats[seat]?.name)),
              ),
            ),
          )
        : null,
    );
  });
  $("#picks").replaceChildren(...buttons);
  $("#picks").classList.toggle("deciding", type === "choose");
  $("#picks").classList.toggle("has-choice", Boolean(shown) && view.phase !== "leader");
}

function renderLocked(state) {
  const view = state.view;
  const box = $("#locked");
  box.hidden = false;
  const waiting = view.waiting_for.filter((s) => s !== state.seat).map((s) => state.seats[s]?.name);
  const waitText = waiting.length ? t("dc.phone.waiting_for", { names: andList(waiting) }) : "";
  if (view.phase === "leader") {
    box.className = "locked";
    box.replaceChildren(
      view.leader === state.seat ? el("p", {}, t("dc.phone.tap_decide")) : el("p", {}, waitText),
    );
    return;
  }
  if (wish) {
    box.className = "locked sending";
    box.replaceChildren(el("p", {}, t("dc.phone.sending", { card: wish.card })));
  } else if (view.my_vote) {
    box.className = "locked in";
    box.replaceChildren(
      el("p", { class: "big" }, lockIcon(), t("dc.phone.locked", { card: view.my_vote })),
      el("p", { class: "muted" }, `${t("dc.phone.change_mind")} ${waitText}`),
    );
  } else {
    box.className = "locked";
    box.replaceChildren(el("p", {}, t("dc.phone.tap_lock")), lastTurn(state));
  }
}

function lockIcon() {
  const icon = el("span", { class: "lock-icon", "aria-hidden": "true" });
  icon.innerHTML =
    '<svg viewBox="0 0 24 24"><path d="M7 10V7a5 5 0 0110 0v3h1.5v11h-13V10zm2.5 0h5V7a2.5 2.5 0 00-5 0z" fill="currentColor"/></svg>';
  return icon;
}

function lastTurn(state) {
  const turn = state.view.last_turn;
  if (!turn || state.view.phase !== "vote") return "";
  const mine = turn.votes[state.seat] === turn.card;
  const scored =
    state.view.variant === "competitive"
      ? turn.scorers.includes(state.seat)
        ? t("dc.phone.scored_one")
        : t("dc.phone.no_point")
      : t("dc.phone.team_scored", { count: turn.points });
  return el(
    "p",
    { class: "muted last" },
    t("dc.phone.last", {
      card: turn.card,
      title: turn.sleeve.title,
      mine: mine ? t("dc.phone.pick_mine") : "",
      scored,
    }),
  );
}

function renderPlayers(state) {
  $("#players").replaceChildren(
    ...state.seats.map((seat) =>
      el(
        "li",
        { class: seat.connected ? "" : "away" },
        el(
          "span",
          { class: "disc tiny", style: { "--c": seatColour(seat.seat) }, "aria-hidden": "true" },
          el("span", {}, initials(seat.name)),
        ),
        `${seat.name}${seat.seat === state.seat ? t("dc.phone.player_you") : ""}${seat.bot ? t("dc.phone.player_bot") : ""}${seat.connected ? "" : t("dc.phone.player_away")}`,
      ),
    ),
  );
}

function renderOver(state) {
  const view = state.view;
  const result = state.result || view.result;
  $("#result").hidden = true;
  $("#timer").hidden = true;
  $("#take-back").hidden = true;
  $("#picks").replaceChildren();
  $("#locked").replaceChildren();
  $("#locked").hidden = true;
  const box = $("#over-box");
  box.hidden = false;
  $("#phase-title").textContent = t("dc.phone.over");
  if (view.variant === "competitive") {
    const won = result.winners.includes(state.seat);
    const shared = result.winners.length > 1;
    $("#phase-hint").textContent = won
      ? shared
        ? t("dc.phone.you_share")
        : t("dc.phone.you_win")
      : t(shared ? "dc.phone.they_share" : "dc.phone.they_win", {
          names: andList(result.winners.map((s) => state.seats[s].name)),
        });
    const order = result.points
      .map((p, seat) => ({ p, seat }))
      .sort((a, b) => b.p - a.p || a.seat - b.seat);
    // Tied players share a place: 1, 1, 3, 3.
    const place = (p) => 1 + result.points.filter((q) => q > p).length;
    box.replaceChildren(
      el(
        "ol",
        { class: "ranking" },
        order.map(({ p, seat }) =>
          el(
            "li",
            { class: seat === state.seat ? "me" : "" },
            el("span", { class: "place" }, t("dc.phone.place", { place: place(p) })),
            ` ${t("dc.phone.rank", { name: state.seats[seat].name, points: t("common.points", { count: p }) })}`,
          ),
        ),
      ),
      el("p", { class: "muted explain" }, t("dc.over.explain.comp")),
    );
  } else {
    $("#phase-hint").textContent = t("dc.phone.team_total", { score: result.score });
    const { ladder, next } = tierLadder(view.players, result.score);
    const tier = (name) => t(`dc.tier.${name}`);
    box.replaceChildren(
      el("p", { class: "tier neon" }, tier(result.tier)),
      el(
        "p",
        { class: "next-tier" },
        next
          ? t("dc.over.next_tier", { count: next.missing, tier: tier(next.tier), min: next.min })
          : t("dc.over.top"),
      ),
      el(
        "ol",
        { class: "ladder", "aria-label": t("dc.over.ladder") },
        ladder
          .slice()
          .reverse()
          .map((step) =>
            el(
              "li",
              {
                class: `${step.reached ? "reached" : ""}${step.current ? " current" : ""}`,
                "aria-current": step.current ? "step" : null,
              },
              el("span", {}, tier(step.tier)),
              el("span", {}, `${step.min}+`),
            ),
          ),
      ),
      el("p", { class: "muted explain" }, t("dc.over.explain.coop")),
    );
  }
  box.append(
    el("p", { class: "muted" }, t("dc.phone.look_table")),
    el(
      "p",
      {},
      el(
        "a",
        { class: "rules-link", href: "/how-to-play/disc-cover#end", target: "_blank" },
        t("common.how_to_play"),
      ),
    ),
  );
}

$("#take-back").addEventListener("click", () => {
  $("#error").textContent = "";
  if (!live?.send({ type: "take_back" })) $("#error").textContent = t("common.offline");
});

// The language switched on this phone: draw the page again in it.
onLanguage(() => {
  if (last && !$("#seat-screen").hidden) render(last);
});

if (code && tokens.seat(code)) enter();
else showJoin();
