// The phone: a Selection Disk. Join a room with a name, then vote for the sleeve that fits the
// song, secretly, changing your mind until the last vote is in.

import { CLOSE, morph } from "/static/common/client.js";
import { andList, onLanguage, t } from "/static/common/i18n.js";
import {
  bindJoinForm,
  keepSeatLink,
  pageCode,
  roomStatus,
  SeatLink,
  showJoinForm,
  toast,
} from "/static/common/phone.js";
import {
  $,
  deadline,
  el,
  initials,
  ladderItems,
  nextTierLine,
  seatColour,
  secondsLeft,
  sleeveImage,
  tierLadder,
  tokens,
  votesByCard,
} from "./common.js";
import { cue, keepAwake } from "./cues.js";

let code = pageCode();
let last = null; // the newest state message
// A round this seat has to decide while the room's timer runs: {key, turn, phase, round, until,
// running, sent, off}. `until` is when the timer runs out on this phone's clock.
let timed = null;
// The rounds the timer gave to this seat's bot, this turn and the last: [{key, turn, phase, card}].
let timeouts = [];
// A round that moved on without this phone's choice this close to the timer's end was the bot's.
const TIMEOUT_SLACK_MS = 5000;
// A bot played this seat in the last state (the table let it, while the phone was away).
let botPlayed = false;
// The vote the bot cast for this seat before the player took the seat back, while that turn's
// vote is still open: {turn, card}. Until the player changes it, it is called the bot's.
let botsVote = null;
const awake = keepAwake(() => last?.status === "playing");

function phaseKey(view) {
  return `${view.turn}:${view.phase}:${view.tiebreak_round}`;
}

// The choice we sent is seen once the phase moves on or our vote shows it.
const link = new SeatLink({
  phaseKey,
  settled: (wish, state) =>
    wish.key !== phaseKey(state.view) || state.view.my_vote === wish.action.card,
  render,
  refused: closed,
  moved: (newCode) => {
    code = newCode;
    timed = null;
    timeouts = [];
    botPlayed = false;
    botsVote = null;
    $("#me-room").textContent = code;
  },
});
keepSeatLink(code);
// The choice sent and not yet seen: {type, card}.
const wished = () => link.wish?.action ?? null;

// ---- joining -------------------------------------------------------------------------------

/**
 * The join form, with `message` under it. `inPlay`: what to say instead if the game has started
 * (the seat was just taken from this phone: "Join again?" would only be refused); it is said
 * above the form too, with how to get back in.
 */
function showJoin(message, inPlay = null) {
  showJoinForm(code, message);
  (code ? $("#join-name") : $("#join-code")).focus();
  if (code) explainIfStarted(code, inPlay);
}

/** A phone without its seat's token for a game that has started: how to get back in. */
async function explainIfStarted(roomCode, inPlay) {
  const status = await roomStatus(roomCode);
  if (status === null || status === "lobby" || roomCode !== code || !$("#seat-screen").hidden)
    return;
  const help = $("#join-help");
  help.hidden = false;
  help.textContent = [
    inPlay,
    status === "over"
      ? t("dc.phone.over_started", { code: roomCode })
      : t("dc.phone.started", { code: roomCode }),
  ]
    .filter(Boolean)
    .join(" ");
  if (inPlay) {
    toast(inPlay, "#join-error");
    help.scrollIntoView({ block: "center" });
  }
}

bindJoinForm(
  {
    noRoom: (roomCode) => t("dc.phone.no_room", { code: roomCode }),
    started: () => t("dc.phone.room_started"),
  },
  enter,
);

function enter(roomCode) {
  code = roomCode;
  $("#join-screen").hidden = true;
  $("#seat-screen").hidden = false;
  $("#join-help").hidden = true;
  $("#me-room").textContent = code;
  link.connect(code);
}

/** The server let this seat go: the join form says why (the token policy already applied). */
function closed(closeCode) {
  showJoin(
    closeCode === CLOSE.KICKED
      ? t("dc.phone.removed")
      : closeCode === CLOSE.BAD_TOKEN
        ? t("dc.phone.not_yours")
        : closeCode === CLOSE.NOT_FOUND
          ? t("dc.phone.gone", { code })
          : t("dc.phone.turned_away"),
    closeCode === CLOSE.KICKED
      ? t("dc.phone.removed_in_play")
      : closeCode === CLOSE.BAD_TOKEN
        ? t("dc.phone.not_yours_in_play")
        : null,
  );
}

// ---- playing -------------------------------------------------------------------------------

function send(action) {
  if (!link.send(action)) return;
  if (timed && timed.key === link.wish.key) timed.sent = true;
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
    $("#timed-out").hidden = true;
    return;
  }
  link.reconcile(state);

  $("#points").replaceChildren(
    view.variant === "competitive"
      ? el("span", {}, el("b", {}, t("common.points", { count: view.my_points ?? 0 })))
      : el("span", {}, `${t("dc.phone.team")} `, el("b", {}, String(view.score ?? 0))),
  );

  if (state.status === "over") return renderOver(state);
  $("#over-box").hidden = true;
  noteTimeout(state, me);
  noteBotsVote(state, me);
  renderTimedOut(state);
  if (me.bot) return renderBotSeat(state, me);
  $("#take-back").hidden = true;
  if (state.listening) return renderListening(state);
  $("#result").hidden = true;
  renderPhase(state);
  renderPicks(state);
  renderLocked(state);
  renderTimer();
  fitPicks();
}

const STATUS_ROOM = 100; // px kept under the sleeves for the status box at its tallest
const LEAST_PICKS = 240; // px: the narrowest the four sleeves' grid is drawn (sleeves of 108 px)

/**
 * On a short portrait screen, draws the four sleeves a little smaller, so that the status box
 * under them ("Locked in" and whom the round waits for, or the last turn's result) is on the
 * screen without scrolling, at its tallest: a tap does not change the sleeves' size, a new round
 * with a longer title or hint (a tie-break) may. The grid is as tall as it is wide plus its tabs
 * and gaps, so its width follows from the height left.
 */
function fitPicks() {
  const picks = $("#picks");
  picks.style.removeProperty("max-width");
  if (innerHeight <= innerWidth || !picks.childElementCount) return;
  const box = $("#locked");
  const below = box.hidden ? 0 : Math.max(box.offsetHeight, STATUS_ROOM) + 12;
  const top = picks.getBoundingClientRect().top + scrollY;
  const wide = picks.offsetWidth;
  const over = top + picks.offsetHeight + below - innerHeight;
  if (over > 0) picks.style.maxWidth = `${Math.max(wide - over, LEAST_PICKS)}px`;
}
addEventListener("resize", fitPicks);

/** A buzz and a chime when the votes are revealed, and when they tie. */
function noticeMoments(was, now) {
  if (now.mosaic.length > was.mosaic.length) cue("reveal", { volume: 0.08 });
  else if (was.phase === "vote" && (now.phase === "tiebreak" || now.phase === "leader"))
    cue("tie", { volume: 0.08 });
}

// ---- the decision timer --------------------------------------------------------------------

/**
 * When the room's timer runs out on a round this seat has not decided, the seat's bot decides,
 * this once. The state carries no word for it: the round moving on without a choice this phone
 * sent, as the time runs out, says it; the phone then says so, in that turn and in its result
 * (not "You picked"). The countdown is shown only while this seat has something to decide
 * (`legal_actions`): not to a seat that has voted, nor to those who wait for the Leader.
 */
function noteTimeout(state, me) {
  const view = state.view;
  const key = phaseKey(view);
  timeouts = timeouts.filter((out) => out.turn >= view.turn - 1 && out.turn <= view.turn);
  if (me.bot) {
    // A bot plays the seat (the table let it): that is no timeout, and there is nothing to count.
    timed = null;
    return;
  }
  const open = !state.listening && state.legal_actions.length > 0;
  if (
    timed &&
    (!open || timed.key !== key) &&
    !timed.sent &&
    !timed.off &&
    Date.now() >= timed.until - TIMEOUT_SLACK_MS
  ) {
    const card = botsCard(timed, state);
    timeouts.push({ key: timed.key, turn: timed.turn, phase: timed.phase, card });
  }
  if (open && typeof state.timer?.remaining === "number") {
    if (!timed || timed.key !== key)
      timed = {
        key,
        turn: view.turn,
        phase: view.phase,
        round: view.tiebreak_round,
        sent: false,
        off: false,
        until: 0,
      };
    timed.until = deadline(state.timer.remaining);
    timed.running = true;
  } else if (open && timed?.key === key) {
    // The timer stopped on this open round: it ran out (the bot's choice is on its way) or the
    // host turned it off well before its end.
    if (timed.running && Date.now() < timed.until - TIMEOUT_SLACK_MS) timed.off = true;
    timed.running = false;
  } else timed = null;
}

/** The card the bot chose in the round `round` left (null if the state does not show it). */
function botsCard(round, state) {
  const view = state.view;
  const seat = state.seat;
  const turn = view.last_turn?.turn === round.turn ? view.last_turn : null;
  if (round.phase === "leader") return turn ? turn.card : null;
  if (round.phase === "vote") return (turn ? turn.votes : view.votes)?.[seat] ?? null;
  const rounds = turn ? turn.tiebreak_votes : view.tiebreak_votes;
  return rounds?.[round.round - 1]?.[seat] ?? null;
}

/** What the timer gave to the bot in turn `turn`: "Time ran out: your bot voted for Record 3…". */
function timeoutLines(turn) {
  return timeouts
    .filter((out) => out.turn === turn)
    .map((out) =>
      out.card === null
        ? t("dc.phone.timed_out")
        : t(out.phase === "leader" ? "dc.phone.timed_out_decided" : "dc.phone.timed_out_vote", {
            card: out.card,
          }),
    );
}

/**
 * The seat taken back from its bot in the middle of a vote: the vote shown is the bot's, not one
 * the player made (kept in `botsVote` while it stands).
 */
function noteBotsVote(state, me) {
  const view = state.view;
  if (me.bot) {
    botPlayed = true;
    botsVote = null;
    return;
  }
  if (botPlayed && view.phase === "vote" && view.my_vote)
    botsVote = { turn: view.turn, card: view.my_vote };
  botPlayed = false;
}

/** The vote shown now is the one the bot cast before the player took the seat back. */
const votedByBotBefore = (view) =>
  botsVote !== null &&
  botsVote.turn === view.turn &&
  view.phase === "vote" &&
  view.my_vote === botsVote.card;

/**
 * The first vote of a finished turn (`turn`, a `last_turn`) was the bot's: the vote round timed
 * out, or the bot voted before the player took the seat back and the player kept its vote.
 */
const botVoted = (turn, seat) =>
  timeouts.some((out) => out.turn === turn.turn && out.phase === "vote") ||
  keptBotsVote(turn, seat);

const keptBotsVote = (turn, seat) =>
  botsVote?.turn === turn.turn && turn.votes[seat] === botsVote.card;

/** The note of this turn's timeouts, while its rounds go on (the result says it after). */
function renderTimedOut(state) {
  const lines = state.listening ? [] : timeoutLines(state.view.turn);
  const box = $("#timed-out");
  box.hidden = !lines.length;
  box.textContent = lines.join(" ");
}

function renderTimer() {
  const left = timed?.running ? secondsLeft(timed.until) : null;
  const box = $("#timer");
  const show = left !== null && last?.status === "playing" && !last.listening;
  box.hidden = !show;
  if (show) {
    box.textContent = t(
      timed.phase === "leader" ? "dc.phone.time_left_decide" : "dc.phone.time_left",
      {
        count: left,
      },
    );
    box.classList.toggle("urgent", left <= 5);
  }
}
setInterval(renderTimer, 500);

/** While a bot plays this seat: say so, and offer the seat back. */
function renderBotSeat(state, me) {
  $("#result").hidden = true;
  $("#timer").hidden = true;
  $("#timed-out").hidden = true;
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

/**
 * The previous turn's result: the sleeve that went into the mosaic, how it was chosen when the
 * first vote tied, every vote (and the last tie-break's), mine and my points.
 */
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
  // The timer gave a round of this turn to the bot: say so, never "You picked" for its vote.
  const timedOut = [
    ...timeoutLines(turn.turn),
    ...(keptBotsVote(turn, state.seat) ? [t("dc.phone.bot_voted_away", { card: mine })] : []),
  ].map((line) => el("p", { class: "result-mine" }, line));
  const byBot = botVoted(turn, state.seat);
  const mineLines = byBot
    ? [...timedOut, el("p", { class: "result-mine" }, t("dc.phone.gain_only", { gain }))]
    : [
        el(
          "p",
          { class: "result-mine" },
          mine === turn.card
            ? t("dc.phone.your_pick", { card: mine, gain })
            : mine >= 1
              ? t("dc.phone.you_picked", { card: mine, gain })
              : t("dc.phone.gain_only", { gain }),
        ),
        ...timedOut,
      ];
  const you = byBot ? t("dc.phone.your_bot") : t("dc.phone.you");
  // A seat's name, this seat's in its own words ("you", or "your bot" where its bot chose).
  const named = (yours) => (seat) => (seat === state.seat ? yours : names[seat]);
  const who = named(you);
  // The last tie-break vote, shown beside the first vote of each sleeve it named (this seat's
  // called the bot's if the timer gave that round to the bot).
  const rounds = turn.tiebreak_votes.length;
  const roundByCard = rounds ? votesByCard(turn.tiebreak_votes[rounds - 1]) : null;
  const whoLast = named(
    timedOutIn(turn.turn, "tiebreak", rounds) ? t("dc.phone.your_bot") : t("dc.phone.you"),
  );
  const how = tieLines(turn, state, who);
  box.replaceChildren(
    el(
      "p",
      { class: "result-title" },
      t("dc.phone.result_title", { turn: turn.turn, card: turn.card }),
    ),
    ...(how ? [el("p", { class: "result-how" }, how.how)] : []),
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
        ...mineLines,
      ),
    ),
    ...(how ? [el("p", { class: "result-rule" }, how.rule)] : []),
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
          byCard[card].length ? andList(byCard[card].map(who)) : t("dc.phone.no_vote"),
          roundByCard?.[card].length
            ? el(
                "span",
                { class: "result-tiebreak" },
                ` · ${t(rounds > 1 ? "dc.phone.last_tiebreak_votes" : "dc.phone.tiebreak_votes", {
                  names: andList(roundByCard[card].map(whoLast)),
                })}`,
              )
            : null,
        ),
      ),
    ),
  );
}

/** The timer gave this seat's choice in that round of turn `turn` to its bot. */
const timedOutIn = (turn, phase, round = 0) =>
  timeouts.some(
    (out) =>
      out.turn === turn &&
      out.phase === phase &&
      (phase !== "tiebreak" || out.key === `${turn}:tiebreak:${round}`),
  );

/** The cards that share the most votes of a round: the tied ones, or the one that won. */
function mostVoted(votes) {
  const byCard = votesByCard(votes);
  const best = Math.max(...[1, 2, 3, 4].map((card) => byCard[card].length));
  return [1, 2, 3, 4].filter((card) => byCard[card].length === best && best > 0);
}

/**
 * A turn whose first vote tied: how its sleeve was chosen (the tie-breaks, the draw or the
 * Leader) and what its points were counted from. Null for a plain majority.
 */
function tieLines(turn, state, who) {
  if (turn.decided_by === "majority") return null;
  const cards = (list) => andList(list.map((card) => t("dc.record", { card })));
  const tied = mostVoted(turn.votes);
  const votes = t("dc.phone.votes_each", { count: votesByCard(turn.votes)[tied[0]].length });
  const common = { cards: cards(tied), votes, card: turn.card };
  if (turn.decided_by === "leader") {
    const mine = turn.leader === state.seat;
    return {
      how: !mine
        ? t("dc.phone.how_leader", { ...common, name: state.seats[turn.leader]?.name ?? "?" })
        : timedOutIn(turn.turn, "leader")
          ? t("dc.phone.how_leader_bot", common)
          : t("dc.phone.how_leader_you", common),
      rule: t("dc.phone.points_leader", {
        card: turn.card,
        names: andList(turn.scorers.map(who)),
      }),
    };
  }
  const rounds = turn.tiebreak_votes.length;
  return {
    how:
      turn.decided_by === "draw"
        ? t("dc.phone.how_draw", {
            ...common,
            still: cards(mostVoted(turn.tiebreak_votes.at(-1) || [])),
          })
        : t("dc.phone.how_tiebreak", { ...common, count: rounds }),
    rule: t("dc.phone.points_first_vote", { card: turn.card, count: turn.points }),
  };
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
  const wish = wished();
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
      // The Record card above its sleeve, as on the table: its number, the pick's mark and the
      // first votes of a tie never lie on the artwork, whose title may be drawn in any corner.
      // (A tie leaves at most four votes on a sleeve: they fit beside the number.)
      el(
        "span",
        { class: "tab", "aria-hidden": "true" },
        revealed?.[card].length
          ? el(
              "span",
              { class: "votes" },
              revealed[card].map((seat) =>
                el(
                  "span",
                  { class: "disc tiny", style: { "--c": seatColour(seat) } },
                  el("span", {}, initials(state.seats[seat]?.name)),
                ),
              ),
            )
          : el("span", { class: "word" }, t("dc.record.word")),
        el(
          "span",
          { class: "tab-end" },
          chosen ? el("span", { class: "lock" }, wish ? "…" : "✓") : null,
          el("b", { class: "number" }, String(card)),
        ),
      ),
      sleeveImage(sleeve),
    );
  });
  // Kept across states (morph): another seat's vote must not replace a button being tapped.
  morph($("#picks"), ...buttons);
  $("#picks").classList.toggle("deciding", type === "choose");
  $("#picks").classList.toggle("has-choice", Boolean(shown) && view.phase !== "leader");
}

function renderLocked(state) {
  const view = state.view;
  const box = $("#locked");
  box.hidden = false;
  const waiting = view.waiting_for.filter((s) => s !== state.seat).map((s) => state.seats[s]?.name);
  const waitText = waiting.length ? t("dc.phone.waiting_for", { names: andList(waiting) }) : "";
  const waitLine = (muted) => el("p", { class: muted ? "muted waiting" : "waiting" }, waitText);
  if (view.phase === "leader") {
    box.className = "locked";
    box.replaceChildren(
      view.leader === state.seat ? el("p", {}, t("dc.phone.tap_decide")) : waitLine(false),
    );
    countIfCut(box, waiting);
    return;
  }
  const wish = wished();
  if (wish) {
    box.className = "locked sending";
    box.replaceChildren(el("p", {}, t("dc.phone.sending", { card: wish.card })));
  } else if (view.my_vote) {
    box.className = "locked in";
    box.replaceChildren(
      el(
        "p",
        { class: "big" },
        lockIcon(),
        votedByBotBefore(view)
          ? t("dc.phone.locked_bot", { card: view.my_vote })
          : t("dc.phone.locked", { card: view.my_vote }),
      ),
      el("p", { class: "muted" }, t("dc.phone.change_mind")),
      waitText ? waitLine(true) : null,
    );
    countIfCut(box, waiting);
  } else {
    box.className = "locked";
    box.replaceChildren(el("p", {}, t("dc.phone.tap_lock")), lastTurn(state));
  }
}

/**
 * Whom the round waits for stops at two lines (.waiting), so that the box stays on a short screen
 * under the sleeves: where the names run past them (many players, long names), the count comes
 * first ("Waiting for 7 players: …"), so that the line still says how many.
 */
function countIfCut(box, waiting) {
  const line = box.querySelector(".waiting");
  if (!line || line.scrollHeight <= line.clientHeight + 1) return;
  const names = andList(waiting);
  line.textContent = t("dc.phone.waiting_for_many", { count: waiting.length, names });
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
  const pick = botVoted(turn, state.seat) ? t("dc.phone.pick_bot") : t("dc.phone.pick_mine");
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
      mine: mine ? pick : "",
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
  // The last turn's result, as after every other turn: the table is still revealing it when the
  // phones learn the game is over. Not for a seat a bot plays: its picks are not the player's.
  if (state.seats[state.seat]?.bot) $("#result").hidden = true;
  else renderResult(state);
  $("#phase-help").href = "/how-to-play/disc-cover#end";
  $("#timer").hidden = true;
  $("#timed-out").hidden = true;
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
    box.replaceChildren(
      el("p", { class: "tier neon" }, t(`dc.tier.${result.tier}`)),
      el("p", { class: "next-tier" }, nextTierLine(next)),
      el("ol", { class: "ladder", "aria-label": t("dc.over.ladder") }, ...ladderItems(ladder)),
      el("p", { class: "muted explain" }, t("dc.over.explain.coop")),
    );
  }
  box.append(el("p", { class: "muted" }, t("dc.phone.look_table")));
}

$("#take-back").addEventListener("click", () => {
  toast("");
  if (!link.post({ type: "take_back" })) toast(t("common.offline"));
});

// The language switched on this phone: draw the page again in it.
onLanguage(() => {
  if (last && !$("#seat-screen").hidden) render(last);
});

if (code && tokens.seat(code)) enter(code);
else showJoin();
