// The phone: a Selection Disk. Join a room with a name, then vote for the sleeve that fits the
// song, secretly, changing your mind until the last vote is in.
import {
  $, el, api, tokens, normaliseCode, RoomSocket, seatColour, initials, sleeveImage, votesByCard,
  plural, andList, deadline, secondsLeft, tierLadder,
} from "./common.js";
import { cue, keepAwake } from "./cues.js";

let code = normaliseCode(location.pathname.split("/join/")[1] || new URLSearchParams(location.search).get("room"));
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
  $("#join-code").value = code;
  $("#join-name").value = tokens.name();
  $("#join-error").textContent = message || "";
  (code ? $("#join-name") : $("#join-code")).focus();
  if (code) explainIfStarted(code);
}

/** A phone without its seat's token for a game that has started: how to get back in. */
async function explainIfStarted(roomCode) {
  let info = null;
  try { info = await api("GET", `/api/rooms/${roomCode}`); } catch { return; }
  if (roomCode !== code || !$("#seat-screen").hidden || info.status === "lobby") return;
  $("#join-help").hidden = false;
  $("#join-help").textContent = info.status === "over"
    ? `The game in room ${roomCode} is over.`
    : `The game in room ${roomCode} has started. Lost your seat (a new phone, cleared browser)? ` +
      "On the table screen, tap your name and choose “A new phone takes this seat”: it shows a " +
      "QR code and a link that bring this phone back to your seat.";
}

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  code = normaliseCode($("#join-code").value);
  const name = $("#join-name").value.trim();
  if (code.length !== 4) { $("#join-error").textContent = "A room code has 4 letters."; return; }
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
      error.code === "room/not_found" ? `No room ${code}: check the code on the table screen.` :
      error.code === "room/started" ? "That game has started already: ask the table for your seat's QR code (tap your name on the table screen)." :
      error.code === "room/full" ? "That table is full." : error.message;
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
    onLink: (up) => { $("#link").hidden = up; if (up && wish) retry = true; },
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
    showJoin(closeCode === 4000 ? "The table removed your seat. Join again?" : "That seat is no longer yours. Join again?");
  } else if (closeCode === 4404) {
    tokens.dropSeat(code);
    showJoin(`Room ${code} is gone.`);
  } else {
    showJoin("The server turned us away; wait a minute and try again.");
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
  $("#error").textContent = message.message;
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
  timerUntil = state.timer && typeof state.timer.remaining === "number" && !state.listening
    ? deadline(state.timer.remaining) : null;
  if (before?.view && view && before.version !== state.version) noticeMoments(before.view, view);
  const me = state.seats[state.seat] || { name: "?" };
  $("#me-name").textContent = me.name;
  const disc = $("#me-disc");
  disc.style.setProperty("--c", seatColour(state.seat ?? 0));
  disc.firstElementChild.textContent = initials(me.name);
  document.title = `Disc Cover · ${me.name}`;

  const lobby = state.status === "lobby" || !view;
  $("#lobby-box").hidden = !lobby;
  renderPlayers(state);
  if (lobby) {
    $("#phase-title").textContent = `You're in, ${me.name}!`;
    $("#phase-hint").textContent = "Waiting for the table to start the game. Keep this page open.";
    $("#picks").replaceChildren();
    $("#locked").replaceChildren();
    $("#locked").hidden = true;
    $("#points").textContent = "";
    $("#over-box").hidden = true;
    return;
  }
  if (wish && (wish.key !== phaseKey(view))) wish = null;
  if (wish && view.my_vote === wish.card) wish = null;
  if (retry && wish) { retry = false; wish.version = state.version; const { type, card } = wish; live.act({ type, card }); }
  retry = false;

  $("#points").replaceChildren(view.variant === "competitive"
    ? el("span", {}, el("b", {}, String(view.my_points ?? 0)), " ", (view.my_points === 1 ? "point" : "points"))
    : el("span", {}, "Team ", el("b", {}, String(view.score ?? 0))));

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
  else if (was.phase === "vote" && (now.phase === "tiebreak" || now.phase === "leader")) cue("tie", { volume: 0.08 });
}

function renderTimer() {
  const left = secondsLeft(timerUntil);
  const box = $("#timer");
  const show = left !== null && last?.status === "playing" && !last.listening;
  box.hidden = !show;
  if (show) {
    box.textContent = `${left} s left to vote`;
    box.classList.toggle("urgent", left <= 5);
  }
}
setInterval(renderTimer, 500);

/** While a bot plays this seat: say so, and offer the seat back. */
function renderBotSeat(state, me) {
  $("#result").hidden = true;
  $("#timer").hidden = true;
  $("#phase-title").textContent = "A bot is playing for you";
  $("#phase-hint").textContent = `While your phone was away the table let a ${me.level || "normal"} bot vote for you. ` +
    "Back? Take your seat again: your next pick is yours.";
  $("#picks").replaceChildren();
  const box = $("#locked");
  box.hidden = false;
  box.className = "locked";
  box.replaceChildren(el("p", {}, `Turn ${state.view.turn} of ${state.view.turns}: the bot chooses for now.`));
  $("#take-back").hidden = false;
}

/** Before the turn's song plays: "Listen…", and what the last turn gave. */
function renderListening(state) {
  const view = state.view;
  $("#timer").hidden = true;
  $("#phase-title").textContent = "Listen…";
  $("#phase-hint").textContent = `Turn ${view.turn} of ${view.turns}: the song starts on the table, and its four sleeves ` +
    "appear here when it plays.";
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
    ? (turn.scorers.includes(state.seat) ? "+1 point for you" : "no point for you")
    : `+${turn.points} for the team`;
  box.replaceChildren(
    el("p", { class: "result-title" }, `Turn ${turn.turn}: Record ${turn.card} goes into the mosaic`),
    el("div", { class: "result-row" },
      sleeveImage(turn.sleeve, "sleeve-art result-art"),
      el("div", {},
        el("p", { class: "result-sleeve" }, `“${turn.sleeve.title || `sleeve ${turn.sleeve.id}`}”`),
        el("p", { class: "result-mine" }, mine === turn.card ? `Your pick, Record ${mine}: ${gain}.`
          : mine >= 1 ? `You picked Record ${mine}: ${gain}.` : `${gain}.`))),
    el("ul", { class: "result-votes", "aria-label": "The votes" }, [1, 2, 3, 4].map((card) => el("li", {
      class: card === turn.card ? "won" : "",
    }, el("b", {}, `Record ${card}`), ": ",
    byCard[card].length ? andList(byCard[card].map((s) => (s === state.seat ? "you" : names[s]))) : "no vote"))));
}

function renderPhase(state) {
  const view = state.view;
  const names = state.seats.map((s) => s.name);
  const cards = (view.candidates || []).map((c) => `Record ${c}`);
  const list = cards.length > 1 ? `${cards.slice(0, -1).join(", ")} and ${cards.at(-1)}` : cards[0];
  let title = `Turn ${view.turn} of ${view.turns}`;
  let hint = "Which sleeve fits the song? Nobody sees your pick until everyone has chosen.";
  if (view.phase === "tiebreak") {
    title = view.tiebreak_round > 1 ? `Still tied! Vote again (${view.tiebreak_round})` : "A tie! Vote again, together";
    hint = `Vote again, only between ${list}. The first votes are shown on the sleeves.`;
  } else if (view.phase === "leader") {
    const leading = view.leader === state.seat;
    title = leading ? "A tie! You're the Leader: you decide" : `A tie! ${names[view.leader]} decides`;
    hint = leading
      ? `Choose which of ${list} goes into the mosaic. Its voters score.`
      : `The Leader picks one of ${list}. Its voters score a point.`;
  }
  $("#phase-title").textContent = title;
  $("#phase-hint").textContent = hint;
}

function renderPicks(state) {
  const view = state.view;
  const { type, cards } = choices(state);
  const shown = wish ? wish.card : view.my_vote;
  const revealed = view.phase === "tiebreak" || view.phase === "leader" ? votesByCard(view.votes) : null;
  const buttons = view.records.map(({ card, sleeve }) => {
    const allowed = cards.includes(card);
    const chosen = shown === card && view.phase !== "leader";
    const out = view.phase !== "vote" && !(view.candidates || []).includes(card);
    const name = sleeve.title ? `${sleeve.title} by ${sleeve.artist}` : `sleeve ${sleeve.id}`;
    return el("button", {
      class: `pick${chosen ? " chosen" : ""}${out ? " out" : ""}`,
      type: "button",
      disabled: !allowed,
      "aria-pressed": type === "vote" ? String(chosen) : null,
      "aria-label": `Record ${card}: ${name}${chosen ? " (your pick)" : ""}`,
      "data-card": card,
      onclick: () => send({ type, card }),
    },
    sleeveImage(sleeve),
    el("span", { class: "number", "aria-hidden": "true" }, String(card)),
    chosen ? el("span", { class: "lock", "aria-hidden": "true" }, wish ? "…" : "✓") : null,
    revealed && revealed[card].length ? el("span", { class: "votes", "aria-hidden": "true" },
      revealed[card].map((seat) => el("span", { class: "disc tiny", style: { "--c": seatColour(seat) } },
        el("span", {}, initials(state.seats[seat]?.name))))) : null);
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
  const waitText = waiting.length ? `Waiting for ${waiting.join(", ")}.` : "";
  if (view.phase === "leader") {
    box.className = "locked";
    box.replaceChildren(view.leader === state.seat
      ? el("p", {}, "Tap a bright sleeve to decide.")
      : el("p", {}, waitText));
    return;
  }
  if (wish) {
    box.className = "locked sending";
    box.replaceChildren(el("p", {}, `Sending Record ${wish.card}…`));
  } else if (view.my_vote) {
    box.className = "locked in";
    box.replaceChildren(
      el("p", { class: "big" }, lockIcon(), `Locked in: Record ${view.my_vote}`),
      el("p", { class: "muted" }, `You can change your mind until the last vote. ${waitText}`));
  } else {
    box.className = "locked";
    box.replaceChildren(el("p", {}, "Tap a sleeve to lock in your pick."), lastTurn(state));
  }
}

function lockIcon() {
  const icon = el("span", { class: "lock-icon", "aria-hidden": "true" });
  icon.innerHTML = '<svg viewBox="0 0 24 24"><path d="M7 10V7a5 5 0 0110 0v3h1.5v11h-13V10zm2.5 0h5V7a2.5 2.5 0 00-5 0z" fill="currentColor"/></svg>';
  return icon;
}

function lastTurn(state) {
  const turn = state.view.last_turn;
  if (!turn || state.view.phase !== "vote") return "";
  const mine = turn.votes[state.seat] === turn.card;
  const scored = state.view.variant === "competitive"
    ? (turn.scorers.includes(state.seat) ? "you scored 1 point" : "no point for you")
    : `the team scored ${plural(turn.points, "point", "points")}`;
  return el("p", { class: "muted last" },
    `Last turn: Record ${turn.card}, “${turn.sleeve.title}”${mine ? " (your pick)" : ""}: ${scored}.`);
}

function renderPlayers(state) {
  $("#players").replaceChildren(...state.seats.map((seat) => el("li", { class: seat.connected ? "" : "away" },
    el("span", { class: "disc tiny", style: { "--c": seatColour(seat.seat) }, "aria-hidden": "true" },
      el("span", {}, initials(seat.name))),
    `${seat.name}${seat.seat === state.seat ? " (you)" : ""}${seat.bot ? " · bot" : ""}${seat.connected ? "" : " · away"}`)));
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
  $("#phase-title").textContent = "Game over";
  if (view.variant === "competitive") {
    const won = result.winners.includes(state.seat);
    const shared = result.winners.length > 1;
    $("#phase-hint").textContent = won
      ? (shared ? "You share the victory!" : "You win!")
      : `${andList(result.winners.map((s) => state.seats[s].name))} ${shared ? "share the victory" : "wins"}.`;
    const order = result.points.map((p, seat) => ({ p, seat })).sort((a, b) => b.p - a.p || a.seat - b.seat);
    // Tied players share a place: 1, 1, 3, 3.
    const place = (p) => 1 + result.points.filter((q) => q > p).length;
    box.replaceChildren(el("ol", { class: "ranking" }, order.map(({ p, seat }) =>
      el("li", { class: seat === state.seat ? "me" : "" },
        el("span", { class: "place" }, `${place(p)}.`),
        ` ${state.seats[seat].name}: ${plural(p, "point", "points")}`))));
  } else {
    $("#phase-hint").textContent = `The team scored ${result.score}.`;
    const { ladder, next } = tierLadder(view.players, result.score);
    box.replaceChildren(el("p", { class: "tier neon" }, result.tier),
      el("p", { class: "next-tier" }, next
        ? `${plural(next.missing, "point", "points")} more would have reached ${next.tier} (${next.min}).`
        : "The top of the ladder!"),
      el("ol", { class: "ladder", "aria-label": "The tier ladder" }, ladder.slice().reverse().map((step) =>
        el("li", { class: `${step.reached ? "reached" : ""}${step.current ? " current" : ""}`, "aria-current": step.current ? "step" : null },
          el("span", {}, step.tier), el("span", {}, `${step.min}+`)))));
  }
  box.append(el("p", { class: "muted" }, "Look at the table for the mosaic. If the table plays again, this page follows."));
}

$("#take-back").addEventListener("click", () => {
  $("#error").textContent = "";
  if (!live?.send({ type: "take_back" })) $("#error").textContent = "No connection: try again in a moment.";
});

if (code && tokens.seat(code)) enter();
else showJoin();
