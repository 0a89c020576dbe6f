// The game log in words, written from the engine's events (view.events; see the "Events" section
// of docs/records-edition.md), never re-derived from boards. A mark and the bonuses it sets off
// are one line: "Ann: Crew: Musician in slot 3 → red harmony box 2 → tour step 4 → single 2".
import { el } from "/static/disc-cover/common.js";
import { ROLE_NAMES, bonusWords, cardWords } from "./words.js";

const TRIGGERS = {
  fail: "a full fail track", crew: "a full crew", goals: "a sixth goal claimed", deck: "an empty deck",
};

/** A place label ("crew:3", "tour:4", "harmony:red:1", "goal:G05", ...) in words. */
export function placeWords(ed, label) {
  const [area, a, b] = String(label).split(":");
  const n = Number(a);
  switch (area) {
    case "crew": return `Crew: ${ROLE_NAMES[ed.crew[n]?.role] || "crew"} in slot ${n + 1}`;
    case "agenda": return `agenda box ${n + 1}`;
    case "agenda_line": return `agenda ${a} complete`;
    case "assets": return `asset box ${n + 1}`;
    case "asset_pair": return `asset boxes ${n + 1} and ${n + 2}`;
    case "harmony": return `${a} harmony box ${Number(b) + 1}`;
    case "tour": return `tour step ${n}`;
    case "album": return `album ${n}`;
    case "single": return `single ${n}`;
    case "multiplier": return `multiplier ${n}`;
    case "cash": return `cash lifted on ${a}`;
    case "fail": return `fail box ${n}`;
    case "goal": return `goal ${ed.goals[a]?.name || a}`;
    default: return String(label);
  }
}

const whoOf = (seats, seat) => seats[seat]?.name || `Player ${seat + 1}`;

function markWords(ed, e) {
  if (e.area === "crew") {
    const role = ROLE_NAMES[ed.cards[e.card]?.role] || "Crew";
    return `Crew: ${role} in slot ${e.slot + 1}${e.multiplier ? ` (×${e.multiplier})` : ""}`;
  }
  return e.area === "agenda" ? `Agenda box ${e.box + 1}` : `Asset box ${e.box + 1}`;
}

/** One event that starts a line, in words (null for a bonus or a lost bonus: they join a line). */
function opening(ed, e, seats) {
  const who = e.seat !== undefined ? whoOf(seats, e.seat) : "";
  switch (e.type) {
    case "lead_singer": return `${who}'s lead singer is ${e.colour}.`;
    case "week": return `Week ${e.week} starts: hands pass ${e.direction}.`;
    case "turn": return `Turn ${e.turn}.`;
    case "draw": return `${who} takes option B and draws a third card.`;
    case "played": {
      const title = cardWords(ed, e.card).title;
      if (e.option) return `${who} plays ${title} (option ${e.option}${e.discarded?.length ? `, ${e.discarded.length} discarded` : ""}).`;
      return `${who} plays ${title}.`;
    }
    case "mark": return `${who}: ${markWords(ed, e)}`;
    case "fail": return `${who} fails ${cardWords(ed, e.card).title}: ${e.box ? `fail box ${e.box}` : "the fail track is full, no tick"}`;
    case "claimed": return `${who} claims ${e.private ? "a private goal, " : ""}${ed.goals[e.goal]?.name || e.goal} (+${e.points})`;
    case "goal_discarded": return e.why === "solo_row"
      ? `${ed.goals[e.goal]?.name || e.goal} leaves the goal row unclaimed.`
      : `${ed.goals[e.goal]?.name || e.goal} is discarded: nobody could claim it.`;
    case "goal_refilled": return `${ed.goals[e.goal]?.name || e.goal} comes into goal slot ${e.slot + 1}.`;
    case "weekend": return `Weekend of week ${e.week}.`;
    case "end_trigger": return `The end is triggered by ${TRIGGERS[e.trigger] || e.trigger}${e.seats?.length && seats.length > 1 ? ` (${e.seats.map((s) => whoOf(seats, s)).join(", ")})` : ""}.`;
    case "end_ticks": return `${who}: ${e.missing} empty crew ${e.missing === 1 ? "slot ticks" : "slots tick"} ${e.ticks} fail ${e.ticks === 1 ? "box" : "boxes"} at the end${e.ticks < e.missing ? " (the fail track is full)" : ""}.`;
    case "game_over": return "Game over.";
    default: return null;
  }
}

function link(ed, e, previousAt) {
  const from = e.cause !== previousAt ? ` (from ${placeWords(ed, e.cause)})` : "";
  if (e.type === "lost") {
    const why = e.why === "locked" ? "a cash restriction locks it" : "no box left";
    return ` → ${bonusWords(e.bonus)} lost: ${why}${from}`;
  }
  return ` → ${placeWords(ed, e.at)}${from}`;
}

/** The log as lines: [{text, seat, kind, index}], oldest first. */
export function logLines(ed, events, seats) {
  const lines = [];
  let chain = null; // the line bonuses of this seat join, and the last place reached
  events.forEach((e, index) => {
    if ((e.type === "bonus" || e.type === "lost") && chain && chain.seat === e.seat) {
      chain.line.text += link(ed, e, chain.at);
      if (e.type === "bonus") chain.at = e.at;
      return;
    }
    if (e.type === "bonus" || e.type === "lost") {
      const line = { text: `${whoOf(seats, e.seat)}: ${placeWords(ed, e.cause)}`, seat: e.seat, kind: "bonus", index };
      lines.push(line);
      chain = { seat: e.seat, line, at: e.cause };
      chain.line.text += link(ed, e, chain.at);
      if (e.type === "bonus") chain.at = e.at;
      return;
    }
    const text = opening(ed, e, seats);
    if (text === null) return;
    const line = { text, seat: e.seat ?? null, kind: e.type, index };
    lines.push(line);
    if (e.type === "mark" || e.type === "fail" || e.type === "claimed") {
      const at = e.type === "mark" ? (e.area === "crew" ? `crew:${e.slot}` : null)
        : e.type === "claimed" ? `goal:${e.goal}` : `fail:${e.box}`;
      chain = { seat: e.seat, line, at };
    } else chain = null;
  });
  for (const line of lines) if (!/[.!?]$/.test(line.text)) line.text += ".";
  return lines;
}

/**
 * The log box: the newest lines first and visible without scrolling, the whole game below in a
 * scrollable list (newest first too). ``mine`` (optional) is how many of the events are the
 * receiver's own, not yet shown to the others.
 */
export function logBox(ed, events, seats, { newest = 4, mine = 0, title = "Game log" } = {}) {
  const lines = logLines(ed, events, seats);
  const hiddenFrom = events.length - mine;
  const item = (line) => el("li", {
    class: `log-line log-${line.kind}${line.index >= hiddenFrom ? " mine" : ""}`,
    title: line.index >= hiddenFrom ? "Only you see this until everyone is done" : null,
  }, line.text);
  const recent = lines.slice(-newest).reverse();
  const box = el("section", { class: "log", "aria-label": title, "data-lines": String(lines.length) },
    el("h3", {}, title),
    el("ol", { class: "log-recent", "aria-live": "polite" }, recent.length ? recent.map(item) : el("li", { class: "muted" }, "Nothing yet.")));
  if (lines.length > newest) {
    box.append(el("details", { class: "log-all" },
      el("summary", {}, `Whole game (${lines.length} lines)`),
      el("ol", { class: "log-list" }, lines.slice().reverse().map(item))));
  }
  return box;
}
