// The game log in words, written from the engine's events (view.events; see the "Events" section
// of docs/records-edition.md), never re-derived from boards. A mark and the bonuses it sets off
// are one line: "Ann: Crew: Musician in slot 3 → red harmony box 2 → tour step 4 → single 2".

import { el } from "/static/common/client.js";
import { has, t } from "/static/common/i18n.js";
import { bonusWords, cardWords, colourName, goalName, inset, ROLE_NAMES, spaced } from "./words.js";

const trigger = (name) => (has(`rec.log.trigger.${name}`) ? t(`rec.log.trigger.${name}`) : name);
/** An agenda line of the edition ("row 2", "diagonal") in words. */
function lineName(name) {
  const [kind, n] = String(name).split(" ");
  return has(`rec.line.${kind}`) ? t(`rec.line.${kind}`, { n }) : name;
}
/** A cash restriction of the edition ("crew 4", "tour 6") in words. */
export function restrictionName(name) {
  const [area, n] = String(name).split(" ");
  return has(`rec.area.${area}`) ? `${t(`rec.area.${area}`)} ${n ?? ""}`.trim() : name;
}
const direction = (name) => (has(`rec.direction.${name}`) ? t(`rec.direction.${name}`) : name);

/** A place label ("crew:3", "tour:4", "harmony:red:1", "goal:G05", ...) in words. */
export function placeWords(ed, label) {
  const [area, a, b] = String(label).split(":");
  const n = Number(a);
  switch (area) {
    case "crew":
      return t("rec.log.crew_slot", {
        role: ROLE_NAMES[ed.crew[n]?.role] || t("rec.log.crew_word"),
        slot: n + 1,
      });
    case "agenda":
      return t("rec.log.agenda_box", { n: n + 1 });
    case "agenda_line":
      return t("rec.log.agenda_line", { line: lineName(a) });
    case "assets":
      return t("rec.log.asset_box", { n: n + 1 });
    case "asset_pair":
      return t("rec.log.asset_pair", { a: n + 1, b: n + 2 });
    case "harmony":
      return t("rec.log.harmony_box", { colour: colourName(a), n: Number(b) + 1 });
    case "tour":
      return t("rec.log.tour_step", { n });
    case "album":
      return t("rec.log.album", { n });
    case "single":
      return t("rec.log.single", { n });
    case "multiplier":
      return t("rec.log.multiplier", { n });
    case "cash":
      return spaced(t("rec.log.cash", { place: inset(restrictionName(a)) }));
    case "fail":
      return t("rec.log.fail_box", { n });
    case "goal":
      return t("rec.log.goal", { name: goalName(ed, a) });
    default:
      return String(label);
  }
}

const whoOf = (seats, seat) => seats[seat]?.name || t("rec.log.player", { n: seat + 1 });

function markWords(ed, e) {
  if (e.area === "crew") {
    const role = ROLE_NAMES[ed.cards[e.card]?.role] || t("rec.card.crew");
    return t("rec.log.mark_crew", {
      role,
      slot: e.slot + 1,
      times: e.multiplier ? ` (×${e.multiplier})` : "",
    });
  }
  return e.area === "agenda"
    ? t("rec.log.mark_agenda", { n: e.box + 1 })
    : t("rec.log.mark_asset", { n: e.box + 1 });
}

/** One event that starts a line, in words (null for a bonus or a lost bonus: they join a line). */
function opening(ed, e, seats) {
  const who = e.seat !== undefined ? whoOf(seats, e.seat) : "";
  switch (e.type) {
    case "lead_singer":
      return t("rec.log.lead_singer", { who, colour: colourName(e.colour) });
    case "week":
      return t("rec.log.week", { week: e.week, direction: direction(e.direction) });
    case "turn":
      return t("rec.log.turn", { turn: e.turn });
    case "draw":
      return t("rec.log.draw", { who });
    case "played": {
      const card = cardWords(ed, e.card).title;
      if (e.option) {
        const discarded = e.discarded?.length
          ? t("rec.log.discarded", { count: e.discarded.length })
          : "";
        return t("rec.log.played_option", { who, card, option: e.option, discarded });
      }
      return t("rec.log.played", { who, card });
    }
    case "mark":
      return t("rec.log.mark", { who, mark: markWords(ed, e) });
    case "fail":
      return t("rec.log.fail", {
        who,
        card: cardWords(ed, e.card).title,
        where: e.box ? t("rec.log.fail_box", { n: e.box }) : t("rec.log.fail_full"),
      });
    case "claimed":
      return t("rec.log.claimed", {
        who,
        private: e.private ? t("rec.log.private") : "",
        goal: goalName(ed, e.goal),
        points: e.points,
      });
    case "goal_discarded":
      return e.why === "solo_row"
        ? t("rec.log.leaves_row", { goal: goalName(ed, e.goal) })
        : t("rec.log.discarded_goal", { goal: goalName(ed, e.goal) });
    case "goal_refilled":
      return t("rec.log.refilled", { goal: goalName(ed, e.goal), slot: e.slot + 1 });
    case "weekend":
      return t("rec.log.weekend", { week: e.week });
    case "end_trigger":
      return t("rec.log.end_trigger", {
        trigger: trigger(e.trigger),
        who:
          e.seats?.length && seats.length > 1
            ? ` (${e.seats.map((s) => whoOf(seats, s)).join(t("common.list_sep"))})`
            : "",
      });
    case "end_ticks":
      return t("rec.log.end_ticks", {
        who,
        missing: e.missing,
        slots: t("rec.log.slot_ticks", { count: e.missing }),
        count: e.ticks,
        boxes: t("rec.log.box", { count: e.ticks }),
        full: e.ticks < e.missing ? t("rec.log.track_full") : "",
      });
    case "game_over":
      return t("rec.log.game_over");
    default:
      return null;
  }
}

function link(ed, e, previousAt) {
  const from = e.cause !== previousAt ? t("rec.log.from", { place: placeWords(ed, e.cause) }) : "";
  if (e.type === "lost") {
    const why = e.why === "locked" ? t("rec.log.locked") : t("rec.log.no_box");
    return t("rec.log.lost", { bonus: bonusWords(e.bonus), why, from });
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
      const line = {
        text: t("rec.log.mark", { who: whoOf(seats, e.seat), mark: placeWords(ed, e.cause) }),
        seat: e.seat,
        kind: "bonus",
        index,
      };
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
      const at =
        e.type === "mark"
          ? e.area === "crew"
            ? `crew:${e.slot}`
            : null
          : e.type === "claimed"
            ? `goal:${e.goal}`
            : `fail:${e.box}`;
      chain = { seat: e.seat, line, at };
    } else chain = null;
  });
  for (const line of lines) if (!/[.!?。！？]$/.test(line.text)) line.text += t("rec.log.stop");
  return lines;
}

/**
 * The log box: the newest lines first and visible without scrolling, the whole game below in a
 * scrollable list (newest first too). ``mine`` (optional) is how many of the events are the
 * receiver's own, not yet shown to the others.
 */
export function logBox(
  ed,
  events,
  seats,
  { newest = 4, mine = 0, title = t("rec.log.title") } = {},
) {
  const lines = logLines(ed, events, seats);
  const hiddenFrom = events.length - mine;
  const item = (line) =>
    el(
      "li",
      {
        class: `log-line log-${line.kind}${line.index >= hiddenFrom ? " mine" : ""}`,
        title: line.index >= hiddenFrom ? t("rec.log.only_you") : null,
      },
      line.text,
    );
  const recent = lines.slice(-newest).reverse();
  const box = el(
    "section",
    { class: "log", "aria-label": title, "data-lines": String(lines.length) },
    el("h3", {}, title),
    el(
      "ol",
      { class: "log-recent", "aria-live": "polite" },
      recent.length ? recent.map(item) : el("li", { class: "muted" }, t("rec.log.nothing")),
    ),
  );
  if (lines.length > newest) {
    box.append(
      el(
        "details",
        { class: "log-all" },
        el("summary", {}, t("rec.log.whole", { count: lines.length })),
        el("ol", { class: "log-list" }, lines.slice().reverse().map(item)),
      ),
    );
  }
  return box;
}
