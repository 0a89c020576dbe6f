// The end of a Records game, shared by the table and the player page: every area's points for
// every player side by side, the winners (and the solo rank), and the replay of the game.

import { api, el, initials, seatColour } from "/static/common/client.js";
import { has, t } from "/static/common/i18n.js";
import { logLines } from "./log.js";
import { drawSheet } from "./sheet.js";
import {
  AREA_NAMES,
  bonusWords,
  cardWords,
  colourName,
  goalName,
  names,
  SCORING,
} from "./words.js";

/** A bonus with its article ("an album", "a red harmony"), for the replay's sentences. */
function aBonus(name) {
  const [kind, colour] = String(name).split(":");
  if (colour) return t("rec.bonus_a.harmony_colour", { colour: colourName(colour) });
  return has(`rec.bonus_a.${kind}`) ? t(`rec.bonus_a.${kind}`) : bonusWords(name);
}

/** The solo chart's rank ("Festival act") in words of the page's language. */
export const rankName = (rank) => (has(`rec.rank.${rank}`) ? t(`rec.rank.${rank}`) : rank);

const player = (seats, i) => seats[i]?.name || t("rec.log.player", { n: i + 1 });
const endTrigger = (name) =>
  has(`rec.end.trigger.${name}`)
    ? t(`rec.end.trigger.${name}`)
    : has(`rec.log.trigger.${name}`)
      ? t(`rec.log.trigger.${name}`)
      : name;

/** The score table: a column per player, a row per scoring area, the total last. */
export function resultTable(_ed, state) {
  const result = state.result;
  const seats = state.seats;
  const winners = new Set(result.winners);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("rec.end.area")),
    seats.map((seat) =>
      el(
        "th",
        {
          scope: "col",
          class: winners.has(seat.seat) ? "winner" : "",
        },
        el(
          "span",
          {
            class: "disc tiny",
            "data-seat-colour": seatColour(seat.seat),
            style: { "--c": seatColour(seat.seat) },
            "aria-hidden": "true",
          },
          el("span", {}, initials(seat.name)),
        ),
        " ",
        seat.name,
        winners.has(seat.seat) ? " ★" : "",
      ),
    ),
  );
  const rows = SCORING.map((area) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, AREA_NAMES[area]),
      result.breakdown.map((b, i) =>
        el("td", { class: winners.has(i) ? "winner" : "" }, String(b[area])),
      ),
    ),
  );
  const total = el(
    "tr",
    { class: "total" },
    el("th", { scope: "row" }, t("rec.end.total")),
    result.scores.map((score, i) =>
      el("td", { class: winners.has(i) ? "winner" : "" }, String(score)),
    ),
  );
  const who = result.winners.map((i) => player(seats, i));
  let verdict;
  if (seats.length === 1)
    verdict = t("rec.end.solo", { score: result.scores[0], rank: rankName(result.rank) });
  else
    verdict =
      result.winners.length > 1
        ? t("rec.end.share", { names: names(who) })
        : t("rec.end.wins", { name: who[0] });
  const triggers = names((result.triggers || []).map(endTrigger));
  const why = !result.triggers?.length
    ? ""
    : seats.length > 1
      ? t("rec.end.why_weeks", { triggers, weeks: result.weeks })
      : t("rec.end.why_turns", { triggers, turns: result.turns });
  return el(
    "div",
    { class: "results" },
    el("p", { class: "verdict neon", id: "verdict" }, verdict),
    el("p", { class: "muted" }, why),
    el(
      "table",
      { class: "score-table", "aria-label": t("rec.end.scores") },
      el("thead", {}, head),
      el("tbody", {}, rows, total),
    ),
  );
}

/** One entry of the action log in words (the replay's caption). */
export function describe(ed, entry, seats) {
  if (!entry) return t("rec.end.set_up");
  const who = player(seats, entry.seat);
  const a = entry.action;
  switch (a.type) {
    case "lead_singer":
      return t("rec.end.lead", { who, colour: colourName(a.colour) });
    case "keep":
      return t("rec.end.keep", { who });
    case "pick":
      return t("rec.end.pick", { who, card: cardWords(ed, a.card).title });
    case "mark":
      return a.area === "crew"
        ? t("rec.end.place_crew", {
            who,
            slot: a.slot + 1,
            mult: a.multiplier !== null ? t("rec.end.with_mult") : "",
          })
        : t("rec.end.tick", {
            who,
            area: has(`rec.area.${a.area}`) ? t(`rec.area.${a.area}`) : a.area,
            box: a.box + 1,
          });
    case "fail":
      return t("rec.end.fail", { who });
    case "bonus":
      return t("rec.end.bonus", { who, bonus: aBonus(a.bonus) });
    case "undo":
      return t("rec.end.undo", { who });
    case "done":
      return t("rec.end.done", { who });
    case "claim":
      return t("rec.end.claim", { who, goal: goalName(ed, a.goal) });
    case "pass":
      return t("rec.end.pass", { who });
    case "draw":
      return t("rec.end.draw", { who });
    default:
      return `${who}: ${a.type}.`;
  }
}

/** The replay: step through the log, every sheet as the table saw it after that step. */
export function replayViewer(ed, code, seats, options = {}) {
  const draw = options.board || ((e, b, o) => drawSheet(e, b, { ...o, small: true }));
  const box = el("section", { class: "replay", "aria-label": t("rec.end.replay") });
  const caption = el("p", { class: "replay-caption", role: "status", "aria-live": "polite" });
  const boards = el("div", { class: "replay-boards" });
  const range = el("input", {
    type: "range",
    min: "0",
    max: "0",
    value: "0",
    "aria-label": t("rec.end.step_label"),
  });
  const said = el("ol", { class: "replay-log", "aria-label": t("rec.end.said") });
  let step = 0,
    steps = 0,
    timer = null,
    asked = 0,
    seen = 0,
    seenStep = -2;
  async function show(n) {
    const ask = ++asked;
    const data = await api("GET", `/api/rooms/${code}/replay/${n}`);
    if (ask !== asked) return;
    step = data.step;
    steps = data.steps;
    range.max = String(steps);
    range.value = String(step);
    const v = data.view;
    const phaseName = has(`rec.phase.${v.phase}`) ? t(`rec.phase.${v.phase}`) : v.phase;
    const when =
      v.phase === "over"
        ? t("rec.end.when_over")
        : seats.length > 1
          ? t("rec.end.when_week", { week: v.week, phase: phaseName })
          : t("rec.end.when_turn", { turn: v.turn, phase: phaseName });
    caption.textContent = t("rec.end.caption", {
      step,
      steps,
      when,
      what: describe(ed, data.entry, seats),
    });
    // What that step caused, in the same sentences as the live log.
    const all = logLines(ed, v.events || [], seats);
    const lines = step === seenStep + 1 ? all.filter((line) => line.index >= seen) : all.slice(-3);
    seen = (v.events || []).length;
    seenStep = step;
    said.replaceChildren(...lines.map((line) => el("li", {}, line.text)));
    boards.replaceChildren(
      ...v.boards.map((b, i) =>
        el(
          "div",
          { class: "mini" },
          el("h4", {}, player(seats, i), el("b", {}, ` ${b.score}`)),
          draw(ed, b, { label: t("rec.end.board_label", { name: seats[i]?.name, step }) }),
        ),
      ),
    );
    box.dataset.step = String(step);
  }
  const go = (n) => show(Math.max(0, Math.min(steps, n)));
  range.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => go(Number(range.value)), 120);
  });
  box.append(
    el("h3", {}, t("rec.end.replay")),
    el(
      "div",
      { class: "replay-controls" },
      el(
        "button",
        {
          type: "button",
          class: "quiet",
          onclick: () => go(0),
          "aria-label": t("rec.end.first_aria"),
        },
        t("rec.end.first"),
      ),
      el(
        "button",
        {
          type: "button",
          class: "quiet",
          id: "replay-back",
          onclick: () => go(step - 1),
          "aria-label": t("rec.end.back"),
        },
        "◀",
      ),
      range,
      el(
        "button",
        {
          type: "button",
          class: "quiet",
          id: "replay-next",
          onclick: () => go(step + 1),
          "aria-label": t("rec.end.next"),
        },
        "▶",
      ),
      el(
        "button",
        {
          type: "button",
          class: "quiet",
          onclick: () => go(steps),
          "aria-label": t("rec.end.last_aria"),
        },
        t("rec.end.last"),
      ),
    ),
    caption,
    said,
    boards,
  );
  show(0).then(() => go(steps));
  return box;
}
