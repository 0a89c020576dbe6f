// The player's page (a phone, or a laptop for a solo game): join, then play from your sheet. Every
// choice comes from the seat's legal actions; the sheet lights up where the card or bonus can go.
import { $, el, api, tokens, normaliseCode, RoomSocket, seatColour, initials } from "/static/disc-cover/common.js";
import { drawSheet, legend, AREA_ORDER, areaOfKey } from "./sheet.js";
import { resultTable, replayViewer } from "./end.js";
import {
  loadEdition, soloEdition, cardWords, goalCondition, goalStatus, colourOf, bonusWords, splitBonus, names,
  AREA_NAMES, ROLE_NAMES, plural,
} from "./words.js";
import { cardFace, goalCard, directionLine } from "./cards.js";
import { logBox, placeWords } from "./log.js";

let code = normaliseCode(location.pathname.split("/join/")[1] || new URLSearchParams(location.search).get("room"));
let live = null;
let last = null; // the newest state message
let ed = null;
let wish = null; // {action, key}: sent, not yet seen
let retry = false;
let chooser = null; // {key, actions}: a crew place with a multiplier choice open
let tab = null; // the area shown on a narrow screen ("all" or an area)
let lastPrompt = null;
let lastRound = null;
let replayShown = false;
let confirming = null; // {text, action}: a fail or a bonus-losing mark waiting for "yes"
let doneTimer = null; // the automatic "done" of a seat that had nothing to choose
let timed = null; // {key, until, sent}: a round this seat still has to decide while the timer runs
let timedOut = null; // {phase, key, text}: the round the timer gave to this seat's bot
// The same fixed delay for every seat, so that how soon a seat is done tells the table nothing.
const AUTO_DONE_MS = 1500;

// A seat link from the table (a new phone for a seat): keep its token, then drop it from the
// address bar so it does not stay in the history or get shared by accident.
const linked = new URLSearchParams(location.search).get("seat_token");
if (code && linked) {
  tokens.setSeat(code, linked);
  history.replaceState(null, "", `/join/${code}`);
}

const phaseKey = (v) => `${v.week}:${v.round}:${v.turn}:${v.phase}:${v.current_goal}`;
const narrow = () => window.matchMedia("(max-width: 899px)").matches;

// ---- joining -------------------------------------------------------------------------------

function showJoin(message) {
  $("#join-screen").hidden = false;
  $("#seat-screen").hidden = true;
  $("#join-code").value = code;
  $("#join-name").value = tokens.name();
  $("#join-error").textContent = message || "";
}

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  code = normaliseCode($("#join-code").value);
  const name = $("#join-name").value.trim();
  if (code.length !== 4) { $("#join-error").textContent = "A room code has 4 letters."; return; }
  $("#join-button").disabled = true;
  try {
    if (!tokens.seat(code)) {
      const seat = await api("POST", `/api/rooms/${code}/seats`, { name });
      tokens.setSeat(code, seat.token);
    }
    tokens.setName(name);
    enter();
  } catch (error) {
    $("#join-error").textContent =
      error.code === "room/not_found" ? `No room ${code}: check the code on the table screen.` :
      error.code === "room/started" ? "That game has started already; ask the table to hand you a seat." :
      error.code === "room/full" ? "That table is full." : error.message;
  } finally {
    $("#join-button").disabled = false;
  }
});

async function enter() {
  history.replaceState(null, "", `/join/${code}`);
  $("#join-screen").hidden = true;
  $("#seat-screen").hidden = false;
  $("#me-room").textContent = code;
  ed = await loadEdition();
  $("#legend-box").replaceChildren(legend());
  if (live) live.stop();
  live = new RoomSocket(code, tokens.seat(code), {
    onState: render,
    onError: showError,
    onAgain: (newCode) => { tokens.setSeat(newCode, tokens.seat(code)); code = newCode; live.moveTo(code); },
    onClosed: (closeCode) => {
      tokens.dropSeat(code);
      showJoin(closeCode === 4000 ? "The table took this seat back: it removed it or gave it to another phone. Join again?" : closeCode === 4404 ? `Room ${code} is gone.` : "That seat is no longer yours. Join again?");
    },
    // Back online: a choice sent while the link was down never arrived; the state that comes
    // with the new connection sends it again if it still stands.
    onLink: (up) => { $("#link").hidden = up; if (up && wish) retry = true; },
  });
}

function showError(message) {
  // Stale: the server had moved on when our choice arrived. If we already hold a newer state than
  // the one we chose on, look at it now (render sends the choice again if it still stands);
  // otherwise the newer state is on its way and its arrival does the same.
  if (message.code === "action/stale") {
    retry = true;
    if (last && wish && last.version > wish.version) render(last);
    return;
  }
  wish = null;
  $("#error").textContent = message.message;
  if (last) render(last);
}

function send(action) {
  if (!last?.view) return;
  $("#error").textContent = "";
  chooser = null;
  confirming = null;
  wish = { action, key: phaseKey(last.view), legal: JSON.stringify(last.legal_actions), version: last.version };
  if (timed && timed.key === wish.key) timed.sent = true;
  if (!live.act(action)) retry = true; // offline: sent again when the link is back
  render(last);
}

// ---- what the legal actions mean on the sheet ----------------------------------------------

/** The sheet key of a mark or bonus action ("crew:3", "agenda:4", "cash:1", "fail"). */
function keyOf(action) {
  if (action.type === "fail") return "fail";
  if (action.type === "mark") return action.area === "crew" ? `crew:${action.slot}` : `${action.area}:${action.box}`;
  if (action.type === "bonus") {
    const { kind } = splitBonus(action.bonus);
    if (kind === "cash") return `cash:${action.box}`;
    if (kind === "agenda") return `agenda:${action.box}`;
    if (kind === "asset") return `assets:${action.box}`;
    if (kind === "harmony") return `harmony:${action.box}`;
    return `${kind}:0`;
  }
  return null;
}

function keyLabel(key) {
  const [kind, n] = key.split(":");
  const i = Number(n);
  if (kind === "crew") {
    const slot = ed.crew[i];
    return `Crew slot ${i + 1}: ${ROLE_NAMES[slot.role]}${slot.bonus ? `, bonus ${bonusWords(slot.bonus)}` : ""}`;
  }
  if (kind === "agenda") return `Agenda box ${i + 1} (row ${Math.floor(i / ed.agenda.columns) + 1}, column ${i % ed.agenda.columns + 1})`;
  if (kind === "assets") return `Asset box ${i + 1}`;
  if (kind === "harmony") {
    const colour = ed.colours[Math.floor(i / ed.harmonies.columns)];
    return `${colour} harmony box ${i % ed.harmonies.columns + 1}`;
  }
  if (kind === "cash") return `Lift the cash restriction on ${ed.restrictions[i]}`;
  if (kind === "fail") return "Fail the card";
  return key;
}

/** Sheet targets of the legal actions: key -> [actions]. */
function targetsOf(actions) {
  const out = new Map();
  for (const action of actions) {
    const key = keyOf(action);
    if (!key || key === "fail") continue;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(action);
  }
  return out;
}

/** Where a card could go on this board (a preview while picking). */
function previewOf(cardId, board) {
  const card = ed.cards[cardId];
  const keys = new Set();
  if (!card) return keys;
  if (card.kind === "agenda") for (let i = 0; i < ed.agenda.rows * ed.agenda.columns; i += 1) { if (!board.agenda.includes(i)) keys.add(`agenda:${i}`); }
  else if (card.kind === "asset") for (let i = 0; i < ed.assets.boxes; i += 1) { if (!board.assets.includes(i)) keys.add(`assets:${i}`); }
  else {
    ed.crew.forEach((slot, i) => {
      const open = slot.cash === null || board.cash_lifted.includes(ed.restrictions[slot.cash]);
      if (slot.role === card.role && !board.crew[i] && open) keys.add(`crew:${i}`);
    });
  }
  return keys;
}

function tapTarget(key) {
  const actions = targetsOf(last.legal_actions).get(key) || [];
  if (actions.length === 1) choose(actions[0]);
  else if (actions.length > 1) { chooser = { key, actions }; render(last); }
}

// ---- say it before it happens ---------------------------------------------------------------

/** Room for one more bonus of that name on the board (the engine loses it otherwise). */
function roomFor(board, name) {
  const [kind, colour] = String(name).split(":");
  switch (kind) {
    case "album": return board.albums < ed.release.albums.length;
    case "single": return board.singles < ed.release.singles.length;
    case "multiplier": return board.multipliers.earned < ed.multipliers.length;
    case "cash": return board.cash_lifted.length < ed.restrictions.length;
    case "agenda": return board.agenda.length < ed.agenda.rows * ed.agenda.columns;
    case "asset": return board.assets.length < ed.assets.boxes;
    case "tour": {
      const step = ed.tour[board.tour];
      return Boolean(step) && (step.cash === null || board.cash_lifted.includes(ed.restrictions[step.cash]));
    }
    case "harmony": {
      const rows = colour ? [colour] : ed.colours;
      return rows.some((c) => (board.harmonies[c] || []).length < ed.harmonies.columns);
    }
    default: return true;
  }
}

/** The bonuses an action earns at once (not those of the chain that follows). */
function earnedBy(action, board) {
  const out = [];
  if (action.type === "fail") {
    const next = ed.fail.bonuses[board.fails];
    if (next) out.push(next);
  } else if (action.type === "mark" && action.area === "crew") {
    if (ed.crew[action.slot].bonus) out.push(ed.crew[action.slot].bonus);
  } else if ((action.type === "mark" && action.area === "agenda") || (action.type === "bonus" && action.bonus === "agenda")) {
    const ticked = new Set([...board.agenda, action.box]);
    for (const line of ed.agenda.lines) if (line.bonus && line.boxes.includes(action.box) && line.boxes.every((b) => ticked.has(b))) out.push(line.bonus);
  } else if ((action.type === "mark" && action.area === "assets") || (action.type === "bonus" && action.bonus === "asset")) {
    const has = new Set([...board.assets, action.box]);
    if (has.has(action.box - 1) && ed.assets.bonuses[action.box - 1]) out.push(ed.assets.bonuses[action.box - 1]);
    if (has.has(action.box + 1) && ed.assets.bonuses[action.box]) out.push(ed.assets.bonuses[action.box]);
  } else if (action.type === "bonus") {
    const kind = action.bonus.split(":")[0];
    if (kind === "album") out.push(ed.release.albums[board.albums]);
    if (kind === "single") out.push(ed.release.singles[board.singles]);
    if (kind === "tour") out.push(ed.tour[board.tour]?.bonus);
    if (kind === "harmony") {
      const colour = ed.colours[Math.floor(action.box / ed.harmonies.columns)];
      out.push(ed.harmonies.bonuses[colour][action.box % ed.harmonies.columns]);
    }
  }
  return out.filter(Boolean);
}

/** A fail, or a mark whose bonus has nowhere to go, is confirmed first; anything else is sent. */
function choose(action) {
  const board = last.view.boards[last.seat];
  const lost = earnedBy(action, board).filter((name) => !roomFor(board, name));
  let text = null;
  if (action.type === "fail") {
    const penalty = ed.fail.penalties[board.fails];
    text = penalty === undefined
      ? "Fail this card? Your fail track is full: the card is just discarded."
      : `Fail this card? It ticks fail box ${board.fails + 1} (${penalty} points on the fail track).`;
    if (lost.length) text += ` Its ${names(lost.map(bonusWords))} bonus is lost: nowhere to put it.`;
  } else if (lost.length) {
    text = `This loses a bonus: ${names(lost.map(bonusWords))} has nowhere to go. Mark it anyway?`;
  }
  if (!text) { send(action); return; }
  confirming = { text, action };
  chooser = null;
  render(last);
}

// ---- rendering -----------------------------------------------------------------------------

function render(state) {
  last = state;
  const view = state.view;
  const me = state.seats[state.seat] || { name: "?" };
  $("#me-name").textContent = me.name;
  const disc = $("#me-disc");
  disc.firstElementChild.textContent = initials(me.name);
  document.title = `Records · ${me.name}`;
  document.body.dataset.version = String(state.version);
  if (state.status === "lobby" || !view || !ed) {
    disc.style.setProperty("--c", seatColour(state.seat ?? 0));
    document.body.dataset.phase = "lobby";
    $("#phase-title").textContent = `You're in, ${me.name}!`;
    $("#phase-hint").textContent = "Waiting for the table to start the game. Keep this page open.";
    $("#panel").replaceChildren();
    $("#players").replaceChildren(...state.seats.map((seat) => el("span", { class: "player-chip" },
      el("span", { class: "disc tiny", style: { "--c": seatColour(seat.seat) } }, el("span", {}, initials(seat.name))),
      `${seat.name}${seat.bot ? " · bot" : ""}`)));
    return;
  }
  const you = view.you;
  const board = view.boards[state.seat];
  document.body.dataset.phase = view.phase;
  if (view.players === 1) ed = soloEdition(ed, view.goal_scale);
  document.body.dataset.toAct = you.to_act ? "1" : "0";
  document.body.dataset.pending = you.pending || "";
  // One colour per seat everywhere (the results too); the lead singer colour is a ring around it.
  disc.style.setProperty("--c", seatColour(state.seat));
  disc.style.boxShadow = board.lead_singer ? `0 0 0 3px ${colourOf(board.lead_singer)}` : "";
  // The choice we sent is seen once the phase moves on, our legal actions change, or it is pending.
  if (wish && (wish.key !== phaseKey(view) || wish.legal !== JSON.stringify(state.legal_actions))) wish = null;
  if (wish && you.pending !== null && wish.action.card === you.pending) wish = null;
  if (retry && wish) { retry = false; wish.version = state.version; live.act(wish.action); }
  retry = false;
  if (chooser && !state.legal_actions.some((a) => keyOf(a) === chooser.key)) chooser = null;
  if (confirming && !state.legal_actions.some((a) => JSON.stringify(a) === JSON.stringify(confirming.action))) confirming = null;
  // Nothing to choose: "done" is sent for us after the same delay as for everyone.
  const onlyDone = state.legal_actions.length === 1 && state.legal_actions[0].type === "done";
  if (doneTimer && (!onlyDone || doneTimer.version !== state.version)) { clearTimeout(doneTimer.id); doneTimer = null; }
  if (onlyDone && !wish && !doneTimer && state.view.you.chose === false) {
    const at = state.version;
    doneTimer = { version: at, id: setTimeout(() => { doneTimer = null; if (last?.version === at) send({ type: "done" }); }, AUTO_DONE_MS) };
  }

  const solo = view.players === 1;
  $("#me-round").textContent = solo ? `solo · turn ${view.turn}` : view.week ? `week ${view.week} · pick ${view.round} of ${ed.picks_per_week}` : "setup";
  $("#points").replaceChildren(el("span", {}, el("b", {}, String(board.score)), " pts"));

  const legal = state.legal_actions;
  const targets = new Map();
  let preview = new Set();
  if (view.phase === "mark" && !chooser && !wish) {
    for (const [key] of targetsOf(legal)) targets.set(key, keyLabel(key));
    if (legal.some((a) => a.type === "fail")) targets.set("fail", "Fail the card: tick the next fail box");
  }
  if (view.phase === "pick" || view.phase === "turn" || view.phase === "third") {
    const shown = wish?.action.card || you.pending;
    if (shown) preview = previewOf(shown, board);
  }
  noteTimeout(state);
  renderStatus(state);
  renderPanel(state);
  renderPlayers(state);
  renderGoals(state);
  renderSheet(state, board, targets, preview);
  renderChooser(state);
  renderLog(state);
  renderOver(state);
}

function renderLog(state) {
  const view = state.view;
  $("#log-box").replaceChildren(logBox(ed, view.events || [], state.seats, { mine: view.you.unrevealed || 0 }));
}

// ---- the decision timer --------------------------------------------------------------------

/**
 * When the room's timer runs out on a round this seat had not decided, the seat's bot decides,
 * this once (a late tap gets turn/timed_out). The state carries no word for it: a choice this page
 * did not send appearing (or the round moving on) as the time runs out says it, and the phone
 * tells its player until the next round of that kind.
 */
function noteTimeout(state) {
  const view = state.view, you = view.you, key = phaseKey(view);
  if (!$("#countdown")) {
    $("#phase-hint").after(el("p", { id: "countdown", class: "countdown", hidden: "" }),
      el("p", { id: "timed-out", class: "timed-out", role: "status", hidden: "" }));
  }
  if (timed && (timed.key !== key || you.pending) && !timed.sent && !timed.off && Date.now() >= timed.until - 5000) {
    const card = timed.phase === "pick" ? you.pending || you.played : null;
    timedOut = {
      phase: timed.phase, key: timed.key,
      text: `Time ran out: your bot ${card ? `picked ${cardWords(ed, card).title}` : "chose"} for you this once. The next choice is yours.`,
    };
  }
  const open = you.to_act && !you.pending;
  if (open && typeof state.timer?.remaining === "number") {
    if (!timed || timed.key !== key) timed = { key, phase: view.phase, sent: false, off: false, until: 0 };
    timed.until = Date.now() + state.timer.remaining * 1000;
    timed.running = true;
  } else if (open && timed?.key === key) {
    // The timer stopped on this open round: it ran out (the bot's choice is on its way) or the
    // host turned it off well before its end.
    if (timed.running && Date.now() < timed.until - 5000) timed.off = true;
    timed.running = false;
  } else timed = null;
  if (timedOut && open && view.phase === timedOut.phase && key !== timedOut.key) timedOut = null;
  if (view.phase === "over") timedOut = null;
  $("#timed-out").hidden = !timedOut;
  $("#timed-out").textContent = timedOut?.text || "";
  showCountdown();
}

function showCountdown() {
  if (!$("#countdown")) return;
  const left = timed?.running ? Math.max(0, Math.ceil((timed.until - Date.now()) / 1000)) : null;
  $("#countdown").hidden = left === null;
  $("#countdown").textContent = left === null ? "" : `⏱ ${left} s to choose, or your bot chooses for you`;
}
setInterval(showCountdown, 500);

function renderStatus(state) {
  const view = state.view;
  const you = view.you;
  const phase = view.phase;
  const waiting = (view.waiting || []).filter((s) => s !== state.seat).map((s) => state.seats[s]?.name);
  const waitText = waiting.length ? `Still choosing: ${names(waiting)}.` : "";
  let title = "", hint = "";
  if (phase === "lead_singer") {
    title = "Choose your lead singer's colour";
    hint = you.pending ? `Your lead singer is ${you.pending}; change it until everyone has chosen. ${waitText}` : "The lead singer slot wears this colour on all four sides.";
  } else if (phase === "keep") {
    title = "Keep one private goal";
    hint = you.pending ? `Kept. You can change until everyone has chosen. ${waitText}` : "Only you see it; you may claim it at the end of each weekend.";
  } else if (phase === "pick") {
    title = `Week ${view.week} · pick ${view.round} of ${ed.picks_per_week}`;
    hint = you.pending ? `Locked in. Tap another card to change it until everyone has picked. ${waitText}` : "Pick one card, secretly. The sheet shows where it could go.";
  } else if (phase === "mark") {
    const still = (view.marking || []).filter((s) => s !== state.seat).map((s) => state.seats[s]?.name);
    if (you.to_act && you.played) {
      title = `Mark your ${cardWords(ed, you.played).title}`;
      const placeable = state.legal_actions.some((a) => a.type === "mark");
      hint = placeable ? "Tap a glowing place on your sheet, or fail the card." : "No place for it on your sheet: it can only be failed.";
    } else if (you.to_act && you.queue.length) {
      title = `Bonus: ${bonusWords(you.queue[0])}`;
      const cause = you.queue_causes?.[0];
      hint = `${cause ? `Earned by ${placeWords(ed, cause)}. ` : ""}Choose where it goes: tap a glowing place or a button.`;
    } else if (you.to_act) {
      title = "Your marks are in";
      hint = you.chose ? "Look them over: Done ends your marking, Undo takes the marks back." : "Nothing to choose this time: done in a moment.";
    } else {
      title = view.current_goal || view.players === 1 ? "Marking" : `Week ${view.week} · marking`;
      hint = still.length ? `Done. Still marking: ${names(still)}.` : "Done. Waiting for the others to mark their sheets.";
    }
  } else if (phase === "claim") {
    const goal = ed.goals[view.current_goal];
    title = `Weekend: ${goal?.name}`;
    hint = you.to_act ? "You can claim this goal. Claim it or pass: several players may claim it." : you.pending ? `You chose to ${you.pending}. ${waitText}` : `You cannot claim it. ${waitText}`;
  } else if (phase === "private") {
    title = "Weekend: your private goal";
    hint = you.to_act ? "Claim your private goal now, or keep it for a later weekend." : "Waiting for the private goals to be decided.";
  } else if (phase === "turn") {
    title = `Solo · turn ${view.turn}`;
    hint = "Option A: play one of the two cards, the other is discarded. Option B: draw a third card.";
  } else if (phase === "third") {
    title = `Solo · turn ${view.turn} · option B`;
    hint = "All one type or all different: play any card. Two of a type: play the odd one out. Then you may claim a goal.";
  } else if (phase === "goal") {
    title = "Solo · claim a goal?";
    hint = "Claim one goal of the row you meet, or pass. Then the 4th goal leaves (unless you claimed it), the row shifts right and a new goal comes in.";
  } else if (phase === "over") {
    title = "Game over";
    hint = "";
  }
  $("#phase-title").textContent = title;
  $("#phase-hint").textContent = hint;
}

function choiceButton(label, action, options = {}) {
  const me = last;
  const toAct = me.view.you.to_act;
  return el("button", {
    type: "button", class: options.class || "", "data-act": toAct ? (options.key || action.type) : null,
    "data-change": !toAct ? action.type : null, "aria-pressed": options.pressed === undefined ? null : String(options.pressed),
    onclick: () => send(action), disabled: options.disabled,
  }, label);
}

function renderPanel(state) {
  const view = state.view;
  const you = view.you;
  const legal = state.legal_actions;
  const panel = $("#panel");
  const parts = [];
  const sending = wish ? el("p", { class: "sending" }, "Sending…") : null;
  const pendingOf = () => wish?.action.card || wish?.action.colour || wish?.action.goal || you.pending;
  const changeable = !you.to_act && you.pending !== null;

  if (view.phase === "lead_singer" && (you.to_act || changeable)) {
    const chosen = pendingOf();
    parts.push(el("div", { class: "colour-choices" }, ed.colours.map((colour) => {
      const b = choiceButton(colour, { type: "lead_singer", colour }, { class: `colour-choice${chosen === colour ? " chosen" : ""}`, pressed: chosen === colour });
      b.style.setProperty("--c", colourOf(colour));
      return b;
    })));
  } else if (view.phase === "keep" && (you.to_act || changeable)) {
    const chosen = pendingOf();
    parts.push(el("div", { class: "goal-choices" }, you.dealt.map((id) => el("div", { class: `goal-pick${chosen === id ? " chosen" : ""}` },
      goalCard(ed, id, view.boards[state.seat]),
      choiceButton(chosen === id ? "Kept ✓" : "Keep this one", { type: "keep", goal: id }, { pressed: chosen === id })))));
  } else if (view.phase === "pick" || view.phase === "turn" || view.phase === "third") {
    const hand = you.hand;
    const chosen = pendingOf();
    const playable = new Set(legal.filter((a) => a.type === "pick").map((a) => a.card));
    const canChange = view.phase === "pick" && changeable;
    const roundKey = `${view.week}:${view.round}`;
    const arriving = view.phase === "pick" && lastRound && lastRound !== roundKey && view.round > 1;
    lastRound = roundKey;
    const cls = `hand${arriving ? (view.direction === "clockwise" ? " from-left" : " from-right") : ""}`;
    parts.push(el("div", { class: cls, role: "group", "aria-label": "Your hand" }, hand.map((id) => {
      const allowed = playable.has(id) || canChange;
      const isChosen = chosen === id;
      const face = cardFace(ed, id, { chosen: isChosen });
      const nowhere = previewOf(id, view.boards[state.seat]).size === 0;
      return el("button", {
        type: "button", class: `card-button${isChosen ? " chosen" : ""}`, disabled: !allowed,
        "data-act": you.to_act && allowed ? "pick" : null, "data-change": canChange ? "pick" : null, "data-card": id,
        "aria-pressed": String(isChosen), "aria-label": `${cardWords(ed, id).title}: ${cardWords(ed, id).marks}${nowhere ? " (no place for it: it would be failed)" : ""}${isChosen ? " (your pick)" : ""}`,
        onclick: () => send({ type: "pick", card: id }),
      }, face, nowhere ? el("span", { class: "no-place" }, "No place for it: it would be failed") : null,
      isChosen ? el("span", { class: "lock", "aria-hidden": "true" }, wish ? "…" : "✓") : null);
    })));
    if (view.phase === "pick") parts.push(directionLine(view, state.seat, state.seats));
    if (legal.some((a) => a.type === "draw")) {
      parts.push(el("button", { type: "button", class: "quiet option-b", "data-act": "draw", onclick: () => send({ type: "draw" }) },
        `Option B: draw a third card (${plural(view.deck, "card", "cards")} left)`));
    }
  } else if (view.phase === "mark" && you.to_act) {
    const undo = legal.some((a) => a.type === "undo")
      ? el("button", { type: "button", class: "quiet undo-button", "data-act": "undo", onclick: () => send({ type: "undo" }) },
        `Undo my marks (${3 - (you.undos || 0)} left)`) : null;
    if (you.played) {
      const placeable = legal.some((a) => a.type === "mark");
      parts.push(el("div", { class: "played" }, cardFace(ed, you.played, { chosen: true }),
        placeable ? null : el("p", { class: "no-place" }, "No place for it: it would be failed.")));
      parts.push(el("button", { type: "button", class: `${placeable ? "quiet " : ""}fail-button`, "data-act": "fail", onclick: () => choose({ type: "fail" }) },
        "Fail this card (tick a fail box)"));
    } else if (!you.queue.length && legal.some((a) => a.type === "done")) {
      parts.push(el("div", { class: "done-row" },
        el("button", { type: "button", class: "done-button", "data-act": "done", onclick: () => send({ type: "done" }) }, "Done"),
        undo));
    } else if (you.queue.length) {
      const options = legal.filter((a) => a.type === "bonus");
      const buttons = options.map((a) => {
        const key = keyOf(a);
        return el("button", { type: "button", class: "quiet small", "data-act": key, onclick: () => choose(a) }, keyLabel(key));
      });
      const areas = [...new Set(options.map((a) => AREA_NAMES[areaOfKey(ed, keyOf(a))]))];
      parts.push(el("div", { class: "bonus-queue" },
        el("p", {}, `${plural(options.length, "place glows", "places glow")} on your ${names(areas)}.`,
          you.queue.length > 1 ? el("span", { class: "muted" }, ` Then: ${you.queue.slice(1).map(bonusWords).join(", ")}.`) : ""),
        options.length <= 6 ? el("div", { class: "bonus-choices" }, buttons)
          : el("details", {}, el("summary", {}, "Or choose from a list"), el("div", { class: "bonus-choices" }, buttons))));
      if (undo) parts.push(undo);
    }
  } else if (view.phase === "claim" || view.phase === "private") {
    const id = view.phase === "claim" ? view.current_goal : you.private_goal;
    if (id) parts.push(goalCard(ed, id, view.boards[state.seat], { current: true }));
    if (you.to_act || changeable) {
      const canClaim = legal.some((a) => a.type === "claim") || (changeable && view.phase === "claim");
      const chosen = wish ? wish.action.type : you.pending;
      parts.push(el("div", { class: "claim-buttons" },
        canClaim ? choiceButton(chosen === "claim" ? "Claimed ✓" : "Claim", { type: "claim", goal: id }, { pressed: chosen === "claim" }) : null,
        choiceButton(chosen === "pass" ? "Passed" : "Pass", { type: "pass" }, { class: "quiet", pressed: chosen === "pass" })));
    }
  } else if (view.phase === "goal" && you.to_act) {
    parts.push(el("div", { class: "claim-buttons" },
      legal.filter((a) => a.type === "claim").map((a) => choiceButton(`Claim ${ed.goals[a.goal].name}`, a, { key: "claim" })),
      choiceButton("Pass", { type: "pass" }, { class: "quiet" })));
  }
  if (sending) parts.push(sending);
  const mine = state.seats[state.seat];
  if (mine?.bot && view.phase !== "over") {
    parts.unshift(el("div", { class: "bot-plays" },
      el("p", {}, `A bot${mine.level ? ` (${mine.level})` : ""} plays your seat for now.`),
      el("button", { type: "button", id: "take-back", onclick: () => {
        if (!live?.send({ type: "take_back" })) $("#error").textContent = "No connection: try again in a moment.";
      } }, "Take my seat back")));
  }
  if (view.players > 1 && view.phase !== "over") {
    const box = el("input", { type: "checkbox", id: "pass-unmet", checked: you.pass_unmet ? "" : null,
      onchange: (event) => live.act({ type: "setting", pass_unmet: event.target.checked }) });
    box.checked = Boolean(you.pass_unmet);
    parts.push(el("label", { class: "setting", for: "pass-unmet" }, box, " Pass my private goal without asking while I cannot meet it"));
  }
  panel.replaceChildren(...parts);
}

function renderPlayers(state) {
  const view = state.view;
  const marking = view.marking !== null && view.marking !== undefined;
  const waiting = new Set(marking ? view.marking : view.waiting || []);
  const choosing = view.waiting !== null || marking;
  $("#players").replaceChildren(...state.seats.map((seat) => {
    const b = view.boards[seat.seat];
    const revealed = view.phase === "mark" && view.revealed[seat.seat] ? cardWords(ed, view.revealed[seat.seat]).title : null;
    const status = marking ? `${revealed ? `${revealed} · ` : ""}${waiting.has(seat.seat) ? "marking…" : "done ✓"}`
      : choosing ? (waiting.has(seat.seat) ? "choosing…" : "chosen ✓") : revealed ? `plays ${revealed}` : "";
    return el("span", { class: `player-chip${waiting.has(seat.seat) ? " waiting" : ""}${seat.seat === state.seat ? " me" : ""}` },
      el("span", { class: "disc tiny", "data-seat-colour": seatColour(seat.seat),
        style: { "--c": seatColour(seat.seat), "box-shadow": b.lead_singer ? `0 0 0 3px ${colourOf(b.lead_singer)}` : null } }, el("span", {}, initials(seat.name))),
      el("span", {}, el("b", {}, seat.name), ` ${b.score} pts`, status ? el("small", {}, ` · ${status}`) : null));
  }));
}

function renderGoals(state) {
  const view = state.view;
  const board = view.boards[state.seat];
  const solo = view.players === 1;
  const row = view.public_goals.map((id, i) => id
    ? goalCard(ed, id, board, { current: id === view.current_goal, slot: solo ? i + 1 : null, leaving: solo && i === view.public_goals.length - 1 })
    : el("div", { class: "goal-card empty" }, "—"));
  const parts = [el("h3", {}, solo ? "Goal row (shifts right →)" : "Public goals"), el("div", { class: "goal-row" }, row)];
  if (view.you.private_goal) parts.push(el("h3", {}, "Your private goal"), goalCard(ed, view.you.private_goal, board));
  $("#goals").replaceChildren(...parts);
}

function renderSheet(state, board, targets, preview) {
  const busy = new Set([...targets.keys()].map((k) => areaOfKey(ed, k)));
  const look = new Set([...preview].map((k) => areaOfKey(ed, k)));
  const prompt = [...busy, ...look][0];
  // A new prompt shows its area on a narrow screen; the player may pick another tab meanwhile.
  const promptKey = `${phaseKey(state.view)}:${[...busy].join(",")}:${state.view.you.queue.join(",")}:${state.view.you.pending}`;
  if (prompt && promptKey !== lastPrompt) tab = prompt;
  lastPrompt = promptKey;
  if (!tab) tab = "crew";
  // On a phone the whole sheet ("All") is an overview too small to tap a box in: its places are
  // outlined, and tapping an area opens that area's tab, where the boxes are finger-sized.
  const overview = narrow() && tab === "all";
  const sheet = overview
    ? drawSheet(ed, board, { preview: new Set([...preview, ...targets.keys()]), label: "Your sheet" })
    : drawSheet(ed, board, { targets, preview, onTarget: tapTarget, label: "Your sheet" });
  if (overview) {
    for (const section of sheet.querySelectorAll(".area")) {
      section.addEventListener("click", (event) => {
        if (event.target.closest(".area-title")) return;
        tab = section.dataset.area;
        render(last);
      });
    }
  }
  const tabs = [["all", "All"], ...AREA_ORDER.map((a) => [a, AREA_NAMES[a]])];
  $("#tabs").replaceChildren(...tabs.map(([area, label]) => el("button", {
    type: "button", class: `tab${tab === area ? " current" : ""}${busy.has(area) ? " busy" : look.has(area) ? " look" : ""}`,
    "aria-pressed": String(tab === area), "data-tab": area,
    onclick: () => { tab = area; render(last); },
  }, label)));
  const current = $("#tabs .current");
  if (current) $("#tabs").scrollLeft = Math.max(0, current.offsetLeft - $("#tabs").offsetLeft - 40);
  sheet.classList.add(`show-${tab}`);
  if (narrow() && tab !== "all") sheet.classList.add("tabbed");
  $("#sheet-box").replaceChildren(sheet);
}

function renderChooser(state) {
  const box = $("#chooser");
  if (confirming) {
    box.hidden = false;
    box.replaceChildren(el("div", { class: "chooser-card" },
      el("h3", { id: "chooser-title" }, confirming.action.type === "fail" ? "Fail the card?" : "Lose a bonus?"),
      el("p", { class: "confirm-text" }, confirming.text),
      el("button", { type: "button", "data-act": "confirm", onclick: () => { const a = confirming.action; confirming = null; send(a); } },
        confirming.action.type === "fail" ? "Yes, fail it" : "Yes, mark it"),
      el("button", { type: "button", class: "quiet", onclick: () => { confirming = null; render(last); } }, "Back")));
    return;
  }
  if (!chooser) { box.hidden = true; box.replaceChildren(); return; }
  const card = ed.cards[state.view.you.played];
  const values = ed.multipliers;
  box.hidden = false;
  box.replaceChildren(el("div", { class: "chooser-card" },
    el("h3", { id: "chooser-title" }, keyLabel(chooser.key)),
    el("p", { class: "muted" }, "Use a multiplier on this crew member?"),
    chooser.actions.map((a) => el("button", { type: "button", "data-act": `mult:${a.multiplier}`, onclick: () => choose(a) },
      a.multiplier === null ? `No multiplier: ${card.points} pts` : `×${values[a.multiplier]}: ${card.points * values[a.multiplier]} pts`)),
    el("button", { type: "button", class: "quiet", onclick: () => { chooser = null; render(last); } }, "Back")));
}

function renderOver(state) {
  const box = $("#over-box");
  if (state.status !== "over" || !state.result) { box.hidden = true; replayShown = false; return; }
  box.hidden = false;
  $("#panel").replaceChildren();
  if (replayShown) return;
  replayShown = true;
  box.replaceChildren(resultTable(ed, state), replayViewer(ed, code, state.seats));
  $("#phase-title").textContent = state.seats.length === 1 ? `Game over: ${state.result.rank}` : "Game over";
}

window.addEventListener("resize", () => { if (last) render(last); });

if (code && tokens.seat(code)) enter();
else showJoin();
