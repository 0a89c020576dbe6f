// The end of a Records game, shared by the table and the player page: every area's points for
// every player side by side, the winners (and the solo rank), and the replay of the game.
import { el, api, seatColour, initials } from "/static/disc-cover/common.js";
import { drawSheet } from "./sheet.js";
import { AREA_NAMES, SCORING, cardWords, names, bonusWords } from "./words.js";
import { logLines } from "./log.js";

/** The score table: a column per player, a row per scoring area, the total last. */
export function resultTable(ed, state) {
  const result = state.result;
  const seats = state.seats;
  const winners = new Set(result.winners);
  const head = el("tr", {}, el("th", { scope: "col" }, "Area"), seats.map((seat) => el("th", {
    scope: "col", class: winners.has(seat.seat) ? "winner" : "",
  }, el("span", { class: "disc tiny", "data-seat-colour": seatColour(seat.seat), style: { "--c": seatColour(seat.seat) }, "aria-hidden": "true" },
    el("span", {}, initials(seat.name))), " ", seat.name, winners.has(seat.seat) ? " ★" : "")));
  const rows = SCORING.map((area) => el("tr", {}, el("th", { scope: "row" }, AREA_NAMES[area]),
    result.breakdown.map((b, i) => el("td", { class: winners.has(i) ? "winner" : "" }, String(b[area])))));
  const total = el("tr", { class: "total" }, el("th", { scope: "row" }, "Total"),
    result.scores.map((score, i) => el("td", { class: winners.has(i) ? "winner" : "" }, String(score))));
  const who = result.winners.map((i) => seats[i]?.name || `Player ${i + 1}`);
  let verdict;
  if (seats.length === 1) verdict = `${result.scores[0]} points: ${result.rank}`;
  else verdict = result.winners.length > 1 ? `${names(who)} share the victory` : `${who[0]} wins`;
  const why = result.triggers?.length ? `The game ended by ${names(result.triggers.map((t) => ({
    fail: "a full fail track", crew: "a full crew", goals: "six goals claimed", deck: "an empty deck",
  }[t] || t)))}${seats.length > 1 ? ` after ${result.weeks} weeks` : ` after ${result.turns} turns`}.` : "";
  return el("div", { class: "results" },
    el("p", { class: "verdict neon", id: "verdict" }, verdict),
    el("p", { class: "muted" }, why),
    el("table", { class: "score-table", "aria-label": "Scores by area" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}

const article = (word) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

/** One entry of the action log in words (the replay's caption). */
export function describe(ed, entry, seats) {
  if (!entry) return "The game is set up.";
  const who = seats[entry.seat]?.name || `Player ${entry.seat + 1}`;
  const a = entry.action;
  switch (a.type) {
    case "lead_singer": return `${who} chose a ${a.colour} lead singer.`;
    case "keep": return `${who} kept a private goal.`;
    case "pick": return `${who} picked ${cardWords(ed, a.card).title}.`;
    case "mark": return a.area === "crew"
      ? `${who} placed a crew member in slot ${a.slot + 1}${a.multiplier !== null ? " with a multiplier" : ""}.`
      : `${who} ticked ${a.area} box ${a.box + 1}.`;
    case "fail": return `${who} failed a card.`;
    case "bonus": return `${who} used ${article(bonusWords(a.bonus))} bonus.`;
    case "undo": return `${who} took back their marks.`;
    case "done": return `${who} is done marking.`;
    case "claim": return `${who} claimed ${ed.goals[a.goal]?.name || a.goal}.`;
    case "pass": return `${who} passed.`;
    case "draw": return `${who} drew a third card (option B).`;
    default: return `${who}: ${a.type}.`;
  }
}

/** The replay: step through the log, every sheet as the table saw it after that step. */
export function replayViewer(ed, code, seats, options = {}) {
  const draw = options.board || ((e, b, o) => drawSheet(e, b, { ...o, small: true }));
  const box = el("section", { class: "replay", "aria-label": "Replay" });
  const caption = el("p", { class: "replay-caption", role: "status", "aria-live": "polite" });
  const boards = el("div", { class: "replay-boards" });
  const range = el("input", { type: "range", min: "0", max: "0", value: "0", "aria-label": "Step of the replay" });
  const said = el("ol", { class: "replay-log", "aria-label": "What happened at this step" });
  let step = 0, steps = 0, timer = null, asked = 0, seen = 0, seenStep = -2;
  async function show(n) {
    const ask = ++asked;
    const data = await api("GET", `/api/rooms/${code}/replay/${n}`);
    if (ask !== asked) return;
    step = data.step; steps = data.steps;
    range.max = String(steps); range.value = String(step);
    const v = data.view;
    const when = v.phase === "over" ? "game over" : seats.length > 1 ? `week ${v.week}, ${v.phase}` : `turn ${v.turn}, ${v.phase}`;
    caption.textContent = `Step ${step} of ${steps} (${when}): ${describe(ed, data.entry, seats)}`;
    // What that step caused, in the same sentences as the live log.
    const all = logLines(ed, v.events || [], seats);
    const lines = step === seenStep + 1 ? all.filter((line) => line.index >= seen) : all.slice(-3);
    seen = (v.events || []).length;
    seenStep = step;
    said.replaceChildren(...lines.map((line) => el("li", {}, line.text)));
    boards.replaceChildren(...v.boards.map((b, i) => el("div", { class: "mini" },
      el("h4", {}, seats[i]?.name || `Player ${i + 1}`, el("b", {}, ` ${b.score}`)),
      draw(ed, b, { label: `${seats[i]?.name} at step ${step}` }))));
    box.dataset.step = String(step);
  }
  const go = (n) => show(Math.max(0, Math.min(steps, n)));
  range.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => go(Number(range.value)), 120); });
  box.append(el("h3", {}, "Replay"),
    el("div", { class: "replay-controls" },
      el("button", { type: "button", class: "quiet", onclick: () => go(0), "aria-label": "First step" }, "« First"),
      el("button", { type: "button", class: "quiet", id: "replay-back", onclick: () => go(step - 1), "aria-label": "Step back" }, "◀"),
      range,
      el("button", { type: "button", class: "quiet", id: "replay-next", onclick: () => go(step + 1), "aria-label": "Step forward" }, "▶"),
      el("button", { type: "button", class: "quiet", onclick: () => go(steps), "aria-label": "Last step" }, "Last »")),
    caption, said, boards);
  show(0).then(() => go(steps));
  return box;
}
