// The player's page (a phone, or a laptop for a solo game): join, then play from your sheet. Every
// choice comes from the seat's legal actions; the sheet lights up where the card or bonus can go.

import {
  $,
  CLOSE,
  el,
  initials,
  listen,
  morph,
  seatColour,
  tokens,
} from "/static/common/client.js";
import { t } from "/static/common/i18n.js";
import {
  bindJoinForm,
  joinError,
  keepSeatLink,
  pageCode,
  roomStatus,
  SeatLink,
  showJoinForm,
  toast,
} from "/static/common/phone.js";
import { cardFace, directionLine, goalCard, goalProgress } from "./cards.js";
import { rankName, replayViewer, resultTable } from "./end.js";
import { logBox, placeWords, restrictionName } from "./log.js";
import { AREA_ORDER, areaOfKey, drawSheet, legend } from "./sheet.js";
import { whyNot } from "./why.js";
import {
  AREA_NAMES,
  bonusWords,
  cardWords,
  colourName,
  colourOf,
  goalName,
  inset,
  loadEdition,
  names,
  ROLE_NAMES,
  soloEdition,
  spaced,
  splitBonus,
} from "./words.js";

let code = pageCode();
let last = null; // the newest state message
let ed = null;
let chooser = null; // {key, actions}: a crew place with a multiplier choice open
let tab = null; // the area shown on a narrow screen ("all" or an area)
let lastPrompt = null;
let lastStep = null; // the marking step shown (see keepStepInView)
let lastRound = null;
let replayShown = false;
let confirming = null; // {text, action}: a fail or a bonus-losing mark waiting for "yes"
let doneTimer = null; // the automatic "done" of a seat that had nothing to choose
let timed = null; // {key, until, sent}: a round this seat still has to decide while the timer runs
let timedOut = null; // {phase, key, text}: the round the timer gave to this seat's bot
// The same fixed delay for every seat, so that how soon a seat is done tells the table nothing.
const AUTO_DONE_MS = 1500;

const phaseKey = (v) => `${v.week}:${v.round}:${v.turn}:${v.phase}:${v.current_goal}`;

// The choice we sent is seen once the phase moves on, our legal actions change, or it is pending.
const link = new SeatLink({
  phaseKey,
  settled: (wish, state) =>
    wish.key !== phaseKey(state.view) ||
    wish.legal !== JSON.stringify(state.legal_actions) ||
    (state.view.you.pending !== null && wish.action.card === state.view.you.pending),
  render: (state) => render(state),
  // The server let the seat go (the token policy already applied): the join form says why.
  refused: (closeCode) => {
    showJoin(
      closeCode === CLOSE.KICKED
        ? t("rec.ph.taken_back")
        : closeCode === CLOSE.NOT_FOUND
          ? t("dc.phone.gone", { code })
          : closeCode === CLOSE.BAD_TOKEN
            ? t("dc.phone.not_yours")
            : t("dc.phone.turned_away"),
    );
    if (closeCode === CLOSE.KICKED || closeCode === CLOSE.BAD_TOKEN) sayHowBackIfStarted(code);
  },
  moved: (newCode) => {
    code = newCode;
    $("#me-room").textContent = code;
  },
});
keepSeatLink(code);
const narrow = () => window.matchMedia("(max-width: 899px)").matches;

// ---- joining -------------------------------------------------------------------------------

function showJoin(message) {
  showJoinForm(code, message);
}

/**
 * A seat taken from this phone (removed, or given to another phone) in a game that has started:
 * "Join again?" would only be refused, so the line says how to get back in.
 */
async function sayHowBackIfStarted(roomCode) {
  const status = await roomStatus(roomCode);
  if (status !== null && status !== "lobby" && roomCode === code && $("#seat-screen").hidden)
    joinError(t("rec.ph.taken_back_in_play"));
}

bindJoinForm(
  {
    noRoom: (roomCode) => t("rec.ph.no_room", { code: roomCode }),
    started: () => t("rec.ph.started"),
  },
  enter,
);

async function enter(roomCode) {
  code = roomCode;
  history.replaceState(null, "", `/join/${code}`);
  $("#join-screen").hidden = true;
  $("#seat-screen").hidden = false;
  $("#me-room").textContent = code;
  ed = await loadEdition();
  $("#legend-box").replaceChildren(legend());
  link.connect(code);
}

/** The choice sent and not yet seen: {action, key, legal, version}, or null. */
const wished = () => link.wish;

function send(action) {
  if (!last?.view) return;
  chooser = null;
  confirming = null;
  if (!link.send(action)) return;
  if (timed && timed.key === link.wish.key) timed.sent = true;
  render(last);
}

// ---- what the legal actions mean on the sheet ----------------------------------------------

/** The sheet key of a mark or bonus action ("crew:3", "agenda:4", "cash:1", "fail"). */
function keyOf(action) {
  if (action.type === "fail") return "fail";
  if (action.type === "mark")
    return action.area === "crew" ? `crew:${action.slot}` : `${action.area}:${action.box}`;
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
    const role = ROLE_NAMES[slot.role];
    return slot.bonus
      ? t("rec.ph.t.crew_bonus", { n: i + 1, role, bonus: bonusWords(slot.bonus) })
      : t("rec.ph.t.crew", { n: i + 1, role });
  }
  if (kind === "agenda")
    return t("rec.ph.t.agenda", {
      n: i + 1,
      row: Math.floor(i / ed.agenda.columns) + 1,
      column: (i % ed.agenda.columns) + 1,
    });
  if (kind === "assets") return t("rec.ph.t.asset", { n: i + 1 });
  if (kind === "harmony") {
    const colour = ed.colours[Math.floor(i / ed.harmonies.columns)];
    return t("rec.ph.t.harmony", {
      colour: colourName(colour),
      n: (i % ed.harmonies.columns) + 1,
    });
  }
  if (kind === "cash")
    return spaced(t("rec.ph.t.cash", { place: inset(restrictionName(ed.restrictions[i])) }));
  if (kind === "fail") return t("rec.ph.fail_the_card");
  return key;
}

/** Sheet targets of the legal actions: key -> [actions] (the next fail box is one: a card is
 * failed there as with the panel's button). */
function targetsOf(actions) {
  const out = new Map();
  for (const action of actions) {
    const key = keyOf(action);
    if (!key) continue;
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
  if (card.kind === "agenda")
    for (let i = 0; i < ed.agenda.rows * ed.agenda.columns; i += 1) {
      if (!board.agenda.includes(i)) keys.add(`agenda:${i}`);
    }
  else if (card.kind === "asset")
    for (let i = 0; i < ed.assets.boxes; i += 1) {
      if (!board.assets.includes(i)) keys.add(`assets:${i}`);
    }
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
  else if (actions.length > 1) {
    chooser = { key, actions };
    render(last);
  }
}

// ---- say it before it happens ---------------------------------------------------------------

/** Room for one more bonus of that name on the board (the engine loses it otherwise). */
function roomFor(board, name) {
  const [kind, colour] = String(name).split(":");
  switch (kind) {
    case "album":
      return board.albums < ed.release.albums.length;
    case "single":
      return board.singles < ed.release.singles.length;
    case "multiplier":
      return board.multipliers.earned < ed.multipliers.length;
    case "cash":
      return board.cash_lifted.length < ed.restrictions.length;
    case "agenda":
      return board.agenda.length < ed.agenda.rows * ed.agenda.columns;
    case "asset":
      return board.assets.length < ed.assets.boxes;
    case "tour": {
      const step = ed.tour[board.tour];
      return (
        Boolean(step) &&
        (step.cash === null || board.cash_lifted.includes(ed.restrictions[step.cash]))
      );
    }
    case "harmony": {
      const rows = colour ? [colour] : ed.colours;
      return rows.some((c) => (board.harmonies[c] || []).length < ed.harmonies.columns);
    }
    default:
      return true;
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
  } else if (
    (action.type === "mark" && action.area === "agenda") ||
    (action.type === "bonus" && action.bonus === "agenda")
  ) {
    const ticked = new Set([...board.agenda, action.box]);
    for (const line of ed.agenda.lines)
      if (line.bonus && line.boxes.includes(action.box) && line.boxes.every((b) => ticked.has(b)))
        out.push(line.bonus);
  } else if (
    (action.type === "mark" && action.area === "assets") ||
    (action.type === "bonus" && action.bonus === "asset")
  ) {
    const has = new Set([...board.assets, action.box]);
    if (has.has(action.box - 1) && ed.assets.bonuses[action.box - 1])
      out.push(ed.assets.bonuses[action.box - 1]);
    if (has.has(action.box + 1) && ed.assets.bonuses[action.box])
      out.push(ed.assets.bonuses[action.box]);
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
    text =
      penalty === undefined
        ? t("rec.ph.fail_full")
        : t("rec.ph.fail_tick", { box: board.fails + 1, penalty });
    if (lost.length) text += t("rec.ph.fail_lost", { bonuses: names(lost.map(bonusWords)) });
  } else if (lost.length) {
    text = t("rec.ph.lose_bonus", { bonuses: names(lost.map(bonusWords)) });
  }
  if (!text) {
    send(action);
    return;
  }
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
  document.title = t("rec.ph.doc", { name: me.name });
  document.body.dataset.version = String(state.version);
  if (state.status === "lobby" || !view || !ed) {
    disc.style.setProperty("--c", seatColour(state.seat ?? 0));
    document.body.dataset.phase = "lobby";
    $("#phase-title").textContent = t("dc.phone.in", { name: me.name });
    $("#phase-hint").textContent = t("rec.ph.wait_start");
    $("#panel").replaceChildren();
    $("#players").replaceChildren(
      ...state.seats.map((seat) =>
        el(
          "span",
          { class: "player-chip" },
          el(
            "span",
            { class: "disc tiny", style: { "--c": seatColour(seat.seat) } },
            el("span", {}, initials(seat.name)),
          ),
          `${seat.name}${seat.bot ? t("rec.table.seat_bot") : ""}`,
        ),
      ),
    );
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
  link.reconcile(state);
  const wish = wished();
  if (chooser && !state.legal_actions.some((a) => keyOf(a) === chooser.key)) chooser = null;
  if (
    confirming &&
    !state.legal_actions.some((a) => JSON.stringify(a) === JSON.stringify(confirming.action))
  )
    confirming = null;
  // Nothing to choose: "done" is sent for us after the same delay as for everyone.
  const onlyDone = state.legal_actions.length === 1 && state.legal_actions[0].type === "done";
  if (doneTimer && (!onlyDone || doneTimer.version !== state.version)) {
    clearTimeout(doneTimer.id);
    doneTimer = null;
  }
  if (onlyDone && !wish && !doneTimer && state.view.you.chose === false) {
    const at = state.version;
    doneTimer = {
      version: at,
      id: setTimeout(() => {
        doneTimer = null;
        if (last?.version === at) send({ type: "done" });
      }, AUTO_DONE_MS),
    };
  }

  const solo = view.players === 1;
  // The weekend: goals put to the players, and the bonuses of a claimed goal marked (a marking
  // that is not a round's has no seats listed as marking).
  const weekend =
    view.phase === "claim" || view.phase === "private" || (view.phase === "mark" && !view.marking);
  $("#me-round").textContent = solo
    ? t("rec.ph.round.solo", { turn: view.turn })
    : !view.week
      ? t("rec.ph.round.setup")
      : weekend
        ? t("rec.ph.round.weekend", { week: view.week })
        : t("rec.ph.round.week", { week: view.week, round: view.round, picks: ed.picks_per_week });
  $("#points").replaceChildren(el("span", {}, el("b", {}, String(board.score)), t("rec.pts")));

  const legal = state.legal_actions;
  const targets = new Map();
  let preview = new Set();
  if (view.phase === "mark" && !chooser && !wish) {
    for (const [key] of targetsOf(legal)) targets.set(key, keyLabel(key));
    if (targets.has("fail")) targets.set("fail", t("rec.ph.fail_target")); // its own words
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
  keepStepInView(state);
}

/**
 * On a phone the step's heading and buttons are above the sheet, and the player's last tap was
 * down on the sheet: when a step of the marking begins (a card to place, each bonus of a chain,
 * Done), the page scrolls back up to its heading unless the heading and the buttons are in view.
 */
function keepStepInView(state) {
  const view = state.view;
  const you = view.you;
  const step =
    view.phase === "mark" && you.to_act
      ? JSON.stringify([phaseKey(view), you.played, you.queue, you.queue_causes, you.undos])
      : null;
  if (step === lastStep) return;
  lastStep = step;
  if (!step || !narrow()) return;
  const top = $("#status").getBoundingClientRect().top;
  const bottom = $("#panel").getBoundingClientRect().bottom;
  if (top >= 0 && bottom <= window.innerHeight) return;
  window.scrollTo({ top: Math.max(0, window.scrollY + top - 8), behavior: "instant" });
}

function renderLog(state) {
  const view = state.view;
  $("#log-box").replaceChildren(
    logBox(ed, view.events || [], state.seats, { mine: view.you.unrevealed || 0 }),
  );
}

// ---- the decision timer --------------------------------------------------------------------

/**
 * When the room's timer runs out on a round this seat had not decided, the seat's bot decides,
 * this once (a late tap gets turn/timed_out). The state carries no word for it: a choice this page
 * did not send appearing (or the round moving on) as the time runs out says it, and the phone
 * tells its player until the next round of that kind.
 */
function noteTimeout(state) {
  const view = state.view,
    you = view.you,
    key = phaseKey(view);
  if (!$("#countdown")) {
    $("#phase-hint").after(
      el("p", { id: "countdown", class: "countdown", hidden: "" }),
      el("p", { id: "timed-out", class: "timed-out", role: "status", hidden: "" }),
    );
  }
  if (
    timed &&
    (timed.key !== key || you.pending) &&
    !timed.sent &&
    !timed.off &&
    Date.now() >= timed.until - 5000
  ) {
    const card = timed.phase === "pick" ? you.pending || you.played : null;
    timedOut = {
      phase: timed.phase,
      key: timed.key,
      text: card
        ? t("rec.ph.timed_out_pick", { card: cardWords(ed, card).title })
        : t("rec.ph.timed_out"),
    };
  }
  const open = you.to_act && !you.pending;
  if (open && typeof state.timer?.remaining === "number") {
    if (!timed || timed.key !== key)
      timed = { key, phase: view.phase, sent: false, off: false, until: 0 };
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
  $("#countdown").textContent = left === null ? "" : t("rec.ph.countdown", { seconds: left });
}
setInterval(showCountdown, 500);

function renderStatus(state) {
  const view = state.view;
  const you = view.you;
  const phase = view.phase;
  const waiting = (view.waiting || [])
    .filter((s) => s !== state.seat)
    .map((s) => state.seats[s]?.name);
  const waitText = waiting.length ? t("rec.ph.still_choosing", { names: names(waiting) }) : "";
  const wait = waitText;
  let title = "",
    hint = "";
  if (phase === "lead_singer") {
    title = t("rec.ph.lead.title");
    hint = you.pending
      ? t("rec.ph.lead.chosen", { colour: colourName(you.pending), wait })
      : t("rec.ph.lead.hint");
  } else if (phase === "keep") {
    title = t("rec.ph.keep.title");
    hint = you.pending ? t("rec.ph.keep.kept", { wait }) : t("rec.ph.keep.hint");
  } else if (phase === "pick") {
    title = t("rec.ph.pick.title", {
      week: view.week,
      round: view.round,
      picks: ed.picks_per_week,
    });
    hint = you.pending ? t("rec.ph.pick.locked", { wait }) : t("rec.ph.pick.hint");
  } else if (phase === "mark") {
    const still = (view.marking || [])
      .filter((s) => s !== state.seat)
      .map((s) => state.seats[s]?.name);
    if (you.to_act && you.played) {
      title = t("rec.ph.mark.title", { card: cardWords(ed, you.played).title });
      const placeable = state.legal_actions.some((a) => a.type === "mark");
      hint = placeable ? t("rec.ph.mark.hint") : t("rec.ph.mark.nowhere");
    } else if (you.to_act && you.queue.length) {
      title = t("rec.ph.bonus.title", { bonus: bonusWords(you.queue[0]) });
      const cause = you.queue_causes?.[0];
      hint = t("rec.ph.bonus.hint", {
        earned: cause
          ? spaced(t("rec.ph.bonus.earned", { place: inset(placeWords(ed, cause)) }))
          : "",
      });
    } else if (you.to_act) {
      title = t("rec.ph.marks_in");
      hint = you.chose ? t("rec.ph.marks_in.look") : t("rec.ph.marks_in.auto");
    } else {
      title =
        view.current_goal || view.players === 1
          ? t("rec.ph.marking")
          : t("rec.ph.week_marking", { week: view.week });
      hint = still.length ? t("rec.ph.done_still", { names: names(still) }) : t("rec.ph.done_wait");
    }
  } else if (phase === "claim") {
    title = t("rec.ph.weekend.title", { goal: goalName(ed, view.current_goal) });
    hint = you.to_act
      ? t("rec.ph.weekend.can")
      : you.pending
        ? t(you.pending === "claim" ? "rec.ph.weekend.chose_claim" : "rec.ph.weekend.chose_pass", {
            wait,
          })
        : t("rec.ph.weekend.cannot", { wait });
  } else if (phase === "private") {
    title = t("rec.ph.private.title");
    hint = you.to_act ? t("rec.ph.private.can") : t("rec.ph.private.wait");
  } else if (phase === "turn") {
    title = t("rec.ph.solo.title", { turn: view.turn });
    hint = t("rec.ph.solo.hint");
  } else if (phase === "third") {
    title = t("rec.ph.solo.b.title", { turn: view.turn });
    hint = t("rec.ph.solo.b.hint");
  } else if (phase === "goal") {
    title = t("rec.ph.solo.goal.title");
    hint = t("rec.ph.solo.goal.hint");
  } else if (phase === "over") {
    title = t("rec.ph.over");
    hint = "";
  }
  // The help link opens the part of the rules this phase is about.
  const part =
    {
      lead_singer: "setup",
      keep: "setup",
      pick: "week",
      mark: "areas",
      claim: "weekend",
      private: "weekend",
      turn: "solo",
      third: "solo",
      goal: "solo",
      over: "end",
    }[phase] || "";
  if ($("#phase-help")) $("#phase-help").href = `/how-to-play/records${part ? `#${part}` : ""}`;
  $("#phase-title").textContent = title;
  $("#phase-hint").textContent = hint;
}

function choiceButton(label, action, options = {}) {
  const me = last;
  const toAct = me.view.you.to_act;
  return el(
    "button",
    {
      type: "button",
      class: options.class || "",
      "data-act": toAct ? options.key || action.type : null,
      "data-change": !toAct ? action.type : null,
      "aria-pressed": options.pressed === undefined ? null : String(options.pressed),
      onclick: () => send(action),
      disabled: options.disabled,
    },
    label,
  );
}

function renderPanel(state) {
  const view = state.view;
  const you = view.you;
  const legal = state.legal_actions;
  const panel = $("#panel");
  const parts = [];
  const wish = wished();
  const sending = wish ? el("p", { class: "sending" }, t("rec.ph.sending")) : null;
  const pendingOf = () =>
    wish?.action.card || wish?.action.colour || wish?.action.goal || you.pending;
  const changeable = !you.to_act && you.pending !== null;

  if (view.phase === "lead_singer" && (you.to_act || changeable)) {
    const chosen = pendingOf();
    parts.push(
      el(
        "div",
        { class: "colour-choices" },
        ed.colours.map((colour) => {
          const b = choiceButton(
            colourName(colour),
            { type: "lead_singer", colour },
            {
              class: `colour-choice${chosen === colour ? " chosen" : ""}`,
              pressed: chosen === colour,
            },
          );
          b.style.setProperty("--c", colourOf(colour));
          return b;
        }),
      ),
    );
  } else if (view.phase === "keep" && (you.to_act || changeable)) {
    const chosen = pendingOf();
    parts.push(
      el(
        "div",
        { class: "goal-choices" },
        you.dealt.map((id) =>
          el(
            "div",
            { class: `goal-pick${chosen === id ? " chosen" : ""}` },
            goalCard(ed, id, goalProgress(view, state.seat, id)),
            choiceButton(
              chosen === id ? t("rec.ph.kept") : t("rec.ph.keep_this"),
              { type: "keep", goal: id },
              { pressed: chosen === id },
            ),
          ),
        ),
      ),
    );
  } else if (view.phase === "pick" || view.phase === "turn" || view.phase === "third") {
    const hand = you.hand;
    const chosen = pendingOf();
    const playable = new Set(legal.filter((a) => a.type === "pick").map((a) => a.card));
    const canChange = view.phase === "pick" && changeable;
    const roundKey = `${view.week}:${view.round}`;
    const arriving = view.phase === "pick" && lastRound && lastRound !== roundKey && view.round > 1;
    lastRound = roundKey;
    const cls = `hand${arriving ? (view.direction === "clockwise" ? " from-left" : " from-right") : ""}`;
    parts.push(
      el(
        "div",
        { class: cls, role: "group", "aria-label": t("rec.ph.hand") },
        hand.map((id) => {
          const allowed = playable.has(id) || canChange;
          const isChosen = chosen === id;
          const face = cardFace(ed, id, { chosen: isChosen });
          const nowhere = previewOf(id, view.boards[state.seat]).size === 0;
          return el(
            "button",
            {
              type: "button",
              class: `card-button${isChosen ? " chosen" : ""}`,
              disabled: !allowed,
              "data-act": you.to_act && allowed ? "pick" : null,
              "data-change": canChange ? "pick" : null,
              "data-card": id,
              "aria-pressed": String(isChosen),
              "aria-label": [
                t("rec.ph.card_aria", cardWords(ed, id)),
                nowhere ? t("rec.ph.card_aria_nowhere") : "",
                isChosen ? t("rec.ph.card_aria_mine") : "",
              ].join(""),
              onclick: () => send({ type: "pick", card: id }),
            },
            face,
            nowhere ? el("span", { class: "no-place" }, t("rec.ph.nowhere")) : null,
            isChosen
              ? el("span", { class: "lock", "aria-hidden": "true" }, wish ? "…" : "✓")
              : null,
          );
        }),
      ),
    );
    if (view.phase === "pick") parts.push(directionLine(view, state.seat, state.seats));
    if (legal.some((a) => a.type === "draw")) {
      parts.push(
        el(
          "button",
          {
            type: "button",
            class: "quiet option-b",
            "data-act": "draw",
            onclick: () => send({ type: "draw" }),
          },
          t("rec.ph.option_b", { cards: t("rec.ph.cards", { count: view.deck }) }),
        ),
      );
    }
  } else if (view.phase === "mark" && you.to_act) {
    const undo = legal.some((a) => a.type === "undo")
      ? el(
          "button",
          {
            type: "button",
            class: "quiet undo-button",
            "data-act": "undo",
            onclick: () => send({ type: "undo" }),
          },
          t("rec.ph.undo", { count: 3 - (you.undos || 0) }),
        )
      : null;
    if (you.played) {
      const placeable = legal.some((a) => a.type === "mark");
      parts.push(
        el(
          "div",
          { class: "played" },
          cardFace(ed, you.played, { chosen: true }),
          placeable ? null : el("p", { class: "no-place" }, t("rec.ph.nowhere_stop")),
        ),
      );
      parts.push(
        el(
          "button",
          {
            type: "button",
            class: `${placeable ? "quiet " : ""}fail-button`,
            "data-act": "fail",
            onclick: () => choose({ type: "fail" }),
          },
          t("rec.ph.fail_card"),
        ),
      );
    } else if (!you.queue.length && legal.some((a) => a.type === "done")) {
      parts.push(
        el(
          "div",
          { class: "done-row" },
          el(
            "button",
            {
              type: "button",
              class: "done-button",
              "data-act": "done",
              onclick: () => send({ type: "done" }),
            },
            t("rec.ph.done_button"),
          ),
          undo,
        ),
      );
    } else if (you.queue.length) {
      const options = legal.filter((a) => a.type === "bonus");
      const buttons = options.map((a) => {
        const key = keyOf(a);
        return el(
          "button",
          { type: "button", class: "quiet small", "data-act": key, onclick: () => choose(a) },
          keyLabel(key),
        );
      });
      const areas = [...new Set(options.map((a) => AREA_NAMES[areaOfKey(ed, keyOf(a))]))];
      parts.push(
        el(
          "div",
          { class: "bonus-queue" },
          el(
            "p",
            {},
            t("rec.ph.glow", { count: options.length, areas: names(areas) }),
            you.queue.length > 1
              ? el(
                  "span",
                  { class: "muted" },
                  t("rec.ph.then", {
                    bonuses: you.queue.slice(1).map(bonusWords).join(t("common.list_sep")),
                  }),
                )
              : "",
          ),
          options.length <= 6
            ? el("div", { class: "bonus-choices" }, buttons)
            : el(
                "details",
                {},
                el("summary", {}, t("rec.ph.or_list")),
                el("div", { class: "bonus-choices" }, buttons),
              ),
        ),
      );
      if (undo) parts.push(undo);
    }
  } else if (view.phase === "claim" || view.phase === "private") {
    const id = view.phase === "claim" ? view.current_goal : you.private_goal;
    if (id) parts.push(goalCard(ed, id, goalProgress(view, state.seat, id), { current: true }));
    if (you.to_act || changeable) {
      const canClaim =
        legal.some((a) => a.type === "claim") || (changeable && view.phase === "claim");
      const chosen = wish ? wish.action.type : you.pending;
      parts.push(
        el(
          "div",
          { class: "claim-buttons" },
          canClaim
            ? choiceButton(
                chosen === "claim" ? t("rec.ph.claimed") : t("rec.ph.claim"),
                { type: "claim", goal: id },
                { pressed: chosen === "claim" },
              )
            : null,
          choiceButton(
            chosen === "pass" ? t("rec.ph.passed") : t("rec.ph.pass"),
            { type: "pass" },
            { class: "quiet", pressed: chosen === "pass" },
          ),
        ),
      );
    }
  } else if (view.phase === "goal" && you.to_act) {
    parts.push(
      el(
        "div",
        { class: "claim-buttons" },
        legal
          .filter((a) => a.type === "claim")
          .map((a) =>
            choiceButton(t("rec.ph.claim_goal", { goal: goalName(ed, a.goal) }), a, {
              key: "claim",
            }),
          ),
        choiceButton(t("rec.ph.pass"), { type: "pass" }, { class: "quiet" }),
      ),
    );
  }
  if (sending) parts.push(sending);
  const mine = state.seats[state.seat];
  if (mine?.bot && view.phase !== "over") {
    parts.unshift(
      el(
        "div",
        { class: "bot-plays" },
        el(
          "p",
          {},
          t("rec.ph.bot_plays", {
            level: mine.level ? ` (${t(`common.level.${mine.level}`)})` : "",
          }),
        ),
        el(
          "button",
          {
            type: "button",
            id: "take-back",
            onclick: () => {
              if (!link.post({ type: "take_back" })) toast(t("common.offline"));
            },
          },
          t("dc.phone.take_back"),
        ),
      ),
    );
  }
  if (view.players > 1 && view.phase !== "over") {
    const box = el("input", {
      type: "checkbox",
      id: "pass-unmet",
      checked: you.pass_unmet ? "" : null,
      onchange: (event) => link.act({ type: "setting", pass_unmet: event.target.checked }),
    });
    box.checked = Boolean(you.pass_unmet);
    parts.push(el("label", { class: "setting", for: "pass-unmet" }, box, t("rec.ph.pass_unmet")));
  }
  morph(panel, ...parts);
}

function renderPlayers(state) {
  const view = state.view;
  const marking = view.marking !== null && view.marking !== undefined;
  const waiting = new Set(marking ? view.marking : view.waiting || []);
  const choosing = view.waiting !== null || marking;
  $("#players").replaceChildren(
    ...state.seats.map((seat) => {
      const b = view.boards[seat.seat];
      const revealed =
        view.phase === "mark" && view.revealed[seat.seat]
          ? cardWords(ed, view.revealed[seat.seat]).title
          : null;
      const status = marking
        ? `${revealed ? `${revealed} · ` : ""}${waiting.has(seat.seat) ? t("rec.table.marking") : t("rec.table.done")}`
        : choosing
          ? waiting.has(seat.seat)
            ? t("rec.table.choosing")
            : t("rec.table.chosen")
          : revealed
            ? t("rec.table.plays", { card: revealed })
            : "";
      return el(
        "span",
        {
          class: `player-chip${waiting.has(seat.seat) ? " waiting" : ""}${seat.seat === state.seat ? " me" : ""}`,
        },
        el(
          "span",
          {
            class: "disc tiny",
            "data-seat-colour": seatColour(seat.seat),
            style: {
              "--c": seatColour(seat.seat),
              "box-shadow": b.lead_singer ? `0 0 0 3px ${colourOf(b.lead_singer)}` : null,
            },
          },
          el("span", {}, initials(seat.name)),
        ),
        el(
          "span",
          {},
          el("b", {}, seat.name),
          ` ${t("rec.pts_n", { points: b.score })}`,
          status ? el("small", {}, ` · ${status}`) : null,
        ),
      );
    }),
  );
}

function renderGoals(state) {
  const view = state.view;
  const solo = view.players === 1;
  const row = view.public_goals.map((id, i) =>
    id
      ? goalCard(ed, id, goalProgress(view, state.seat, id), {
          current: id === view.current_goal,
          slot: solo ? i + 1 : null,
          leaving: solo && i === view.public_goals.length - 1,
        })
      : el("div", { class: "goal-card empty" }, "—"),
  );
  const parts = [
    el("h3", {}, solo ? t("rec.ph.goal_row") : t("rec.ph.goals_public")),
    el("div", { class: "goal-row" }, row),
  ];
  if (view.you.private_goal)
    parts.push(
      el("h3", {}, t("rec.ph.private_goal")),
      goalCard(ed, view.you.private_goal, goalProgress(view, state.seat, view.you.private_goal)),
    );
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
    ? drawSheet(ed, board, {
        preview: new Set([...preview, ...targets.keys()]),
        label: t("rec.ph.your_sheet"),
      })
    : drawSheet(ed, board, {
        targets,
        preview,
        onTarget: tapTarget,
        label: t("rec.ph.your_sheet"),
      });
  if (!overview && targets.size)
    listen(sheet, "click", (event) => tapElsewhere(event, board, targets));
  if (overview) {
    for (const section of sheet.querySelectorAll(".area")) {
      listen(section, "click", (event) => {
        if (event.target.closest(".area-title")) return;
        tab = section.dataset.area;
        render(last);
      });
    }
  }
  const tabs = [["all", t("rec.ph.all")], ...AREA_ORDER.map((a) => [a, AREA_NAMES[a]])];
  morph(
    $("#tabs"),
    ...tabs.map(([area, label]) =>
      el(
        "button",
        {
          type: "button",
          class: `tab${tab === area ? " current" : ""}${busy.has(area) ? " busy" : look.has(area) ? " look" : ""}`,
          "aria-pressed": String(tab === area),
          "data-tab": area,
          onclick: () => {
            tab = area;
            render(last);
          },
        },
        label,
      ),
    ),
  );
  const current = $("#tabs .current");
  if (current) $("#tabs").scrollLeft = Math.max(0, current.offsetLeft - $("#tabs").offsetLeft - 40);
  sheet.classList.add(`show-${tab}`);
  if (narrow() && tab !== "all") sheet.classList.add("tabbed");
  morph($("#sheet-box"), sheet);
}

/** A tap on the sheet that is no glowing place (those answer their own taps) says why not, in a
 * note at the foot of the screen, where the finger is; nothing is sent. */
function tapElsewhere(event, board, targets) {
  if (event.target.closest(".area-title, .area-help, [data-act]")) return;
  const place = event.target.closest("[data-key]");
  const area = event.target.closest(".area");
  if (
    !place &&
    (!area?.querySelector("svg")?.contains(event.target) || area.classList.contains("has-target"))
  )
    return;
  const you = last.view.you;
  const why = whyNot(ed, board, place?.dataset.key || null, {
    card: you.played,
    targets: new Set(targets.keys()),
    marked: Boolean(place?.matches(".ticked, .placed")),
  });
  note(why);
}

let noteTimer = null;
/** A line said briefly at the foot of the screen (a tap that did nothing says why). */
function note(text) {
  let line = $("#tap-note");
  if (!line) {
    line = el("p", { id: "tap-note", class: "tap-note", role: "status", hidden: "" });
    document.body.append(line);
  }
  line.textContent = text;
  line.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => {
    line.hidden = true;
  }, 3500);
}

/** The question a tap asked (a fail, a bonus lost, a multiplier), kept across states (morph) like
 * the choices under it: another seat's move must not replace the button being tapped. */
function renderChooser(state) {
  const box = $("#chooser");
  if (confirming) {
    box.hidden = false;
    morph(
      box,
      el(
        "div",
        { class: "chooser-card" },
        el(
          "h3",
          { id: "chooser-title" },
          confirming.action.type === "fail" ? t("rec.ph.fail_q") : t("rec.ph.lose_q"),
        ),
        el("p", { class: "confirm-text" }, confirming.text),
        el(
          "button",
          {
            type: "button",
            "data-act": "confirm",
            onclick: () => {
              const a = confirming.action;
              confirming = null;
              send(a);
            },
          },
          confirming.action.type === "fail" ? t("rec.ph.yes_fail") : t("rec.ph.yes_mark"),
        ),
        el(
          "button",
          {
            type: "button",
            class: "quiet",
            onclick: () => {
              confirming = null;
              render(last);
            },
          },
          t("rec.ph.back"),
        ),
      ),
    );
    return;
  }
  if (!chooser) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const card = ed.cards[state.view.you.played];
  const values = ed.multipliers;
  box.hidden = false;
  morph(
    box,
    el(
      "div",
      { class: "chooser-card" },
      el("h3", { id: "chooser-title" }, keyLabel(chooser.key)),
      el("p", { class: "muted" }, t("rec.ph.multiplier_q")),
      chooser.actions.map((a) =>
        el(
          "button",
          { type: "button", "data-act": `mult:${a.multiplier}`, onclick: () => choose(a) },
          a.multiplier === null
            ? t("rec.ph.no_multiplier", { points: card.points })
            : t("rec.ph.with_multiplier", {
                times: values[a.multiplier],
                points: card.points * values[a.multiplier],
              }),
        ),
      ),
      el(
        "button",
        {
          type: "button",
          class: "quiet",
          onclick: () => {
            chooser = null;
            render(last);
          },
        },
        t("rec.ph.back"),
      ),
    ),
  );
}

function renderOver(state) {
  const box = $("#over-box");
  if (state.status !== "over" || !state.result) {
    box.hidden = true;
    replayShown = false;
    return;
  }
  box.hidden = false;
  $("#panel").replaceChildren();
  if (replayShown) return;
  replayShown = true;
  box.replaceChildren(resultTable(ed, state), replayViewer(ed, code, state.seats));
  $("#phase-title").textContent =
    state.seats.length === 1
      ? t("rec.ph.over_rank", { rank: rankName(state.result.rank) })
      : t("rec.ph.over");
}

window.addEventListener("resize", () => {
  if (last) render(last);
});

if (code && tokens.seat(code)) enter(code);
else showJoin();
