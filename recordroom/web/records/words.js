// Draft & Write Records in words: the edition (fetched once), bonus icons, card and goal texts.
// How far a board is towards a goal is the view's (`goal_progress`), never counted here.

import { api } from "/static/common/client.js";
import { andList, has, onLanguage, t } from "/static/common/i18n.js";

// Every word below comes from the catalogue in the page's language. The Records pages draw much
// from constants made once: another language chosen on the page reloads it.
onLanguage(() => location.reload());

let editionPromise = null;
/** The edition's board layout, cards and goals (GET /api/games/records/edition). */
export function loadEdition(name = "standard") {
  if (!editionPromise)
    editionPromise = api("GET", `/api/games/records/edition?edition=${encodeURIComponent(name)}`);
  return editionPromise;
}

/**
 * The edition as a solo game uses it: each goal asks for ``scale`` of its number, rounded up, at
 * least 1 (the view's ``goal_scale``; the engine does the same). Built once per scale.
 */
const soloEditions = new Map();
export function soloEdition(ed, scale) {
  if (!scale || scale === 1) return ed;
  if (!soloEditions.has(scale)) {
    const goals = Object.fromEntries(
      Object.entries(ed.goals).map(([id, g]) => [
        id,
        { ...g, n: Math.max(1, Math.ceil(g.n * scale - 1e-9)) },
      ]),
    );
    soloEditions.set(scale, { ...ed, goals });
  }
  return soloEditions.get(scale);
}

export const COLOURS = { red: "#e5484d", blue: "#3b82d6", green: "#3fa55b", yellow: "#f2c12e" };
export const colourOf = (name) => COLOURS[name] || "#999";

// One glyph and one word per bonus; the glyphs are in the DejaVu fonts every page uses.
export const BONUS = {
  album: { glyph: "LP", word: t("rec.bonus.album"), tint: "#8e5bd6" },
  single: { glyph: "♪", word: t("rec.bonus.single"), tint: "#d65b9a" },
  tour: { glyph: "⚑", word: t("rec.bonus.tour"), tint: "#2f8f83" },
  multiplier: { glyph: "×", word: t("rec.bonus.multiplier"), tint: "#c8641e" },
  cash: { glyph: "$", word: t("rec.bonus.cash"), tint: "#3d8b37" },
  harmony: { glyph: "♫", word: t("rec.bonus.harmony"), tint: "#5a6b8c" },
  agenda: { glyph: "▦", word: t("rec.bonus.agenda"), tint: "#6b5130" },
  asset: { glyph: "◆", word: t("rec.bonus.asset"), tint: "#2c6fa8" },
};

/** A colour's name in the page's language ("red", "红色"). */
export const colourName = (colour) =>
  has(`rec.colour.${colour}`) ? t(`rec.colour.${colour}`) : colour;

/** A goal's name: the edition's, in the page's language when the catalogue has it. */
export const goalName = (ed, id) =>
  has(`rec.goalname.${id}`) ? t(`rec.goalname.${id}`) : ed.goals[id]?.name || id;

/** "harmony:red" -> {kind: "harmony", colour: "red"}. */
export function splitBonus(name) {
  const [kind, colour] = String(name).split(":");
  return { kind, colour: colour || null };
}

export function bonusWords(name) {
  const { kind, colour } = splitBonus(name);
  if (colour) return t("rec.bonus.harmony_colour", { colour: colourName(colour) });
  return BONUS[kind]?.word || kind;
}

const ROLES = ["singer", "musician", "producer", "backstage"];
export const ROLE_NAMES = Object.fromEntries(ROLES.map((role) => [role, t(`rec.role.${role}`)]));
const ROLE_PLURAL = Object.fromEntries(ROLES.map((role) => [role, t(`rec.roles.${role}`)]));

/** What a card is and what it marks, in a line. */
export function cardWords(ed, id) {
  const card = ed.cards[id];
  if (!card) return { title: id, marks: "" };
  if (card.kind === "agenda")
    return { title: t("rec.card.agenda"), marks: t("rec.card.agenda_marks") };
  if (card.kind === "asset")
    return { title: t("rec.card.asset"), marks: t("rec.card.asset_marks") };
  const role = ROLE_NAMES[card.role];
  const marks =
    card.role === "singer"
      ? t("rec.card.singer_marks", { count: card.points })
      : t("rec.card.crew_marks", { role: t(`rec.role_slot.${card.role}`), count: card.points });
  return { title: t("rec.card.crew_title", { role }), marks };
}

/** A goal's condition in words: "4 musicians placed". */
export function goalCondition(goal) {
  const n = goal.n;
  if (!has(`rec.goal.${goal.kind}`)) return `${goal.kind} ${n}`;
  return t(`rec.goal.${goal.kind}`, {
    n,
    roles: ROLE_PLURAL[goal.role] || goal.role,
    colour: colourName(goal.colour),
  });
}

export const AREA_NAMES = Object.fromEntries(
  [
    "crew",
    "tour",
    "release",
    "agenda",
    "assets",
    "harmonies",
    "multiplier",
    "fail",
    "goals",
    "scores",
  ].map((area) => [area, t(`rec.area.${area}`)]),
);
export const SCORING = ["goals", "release", "crew", "tour", "harmonies", "fail"];

export const names = (list) => andList(list);

// Chinese sets a number apart from the characters beside it with a space ("巡演第 3 步"), as the
// catalogue does around the numbers of its messages. Words put into a message may end in a number
// of their own ("单曲 2" in "由{place}获得。"): marked with inset() before t() fills them in, they
// get that space from spaced() where Chinese comes right after them (or right before a number they
// begin with): "由单曲 2 获得。", and "由巡演第 3 步获得。" as it was. Other languages keep their
// text as it is.
const [OPEN, CLOSE] = ["\uE000", "\uE001"]; // private-use characters, which no message has
const INSET = /\uE000([^\uE000\uE001]*)\uE001/g;
const HAN = /\p{Script=Han}/u;

/** `words` marked as a part of a message, for spaced(). */
export const inset = (words) => `${OPEN}${words}${CLOSE}`;

/** A message filled with inset() words, those marks taken out and a space put between a number at
 * an inset's edge and the Chinese beside it. */
export function spaced(text) {
  return String(text).replace(INSET, (whole, words, at, all) => {
    const before = HAN.test(all[at - 1] || "") && /^\d/.test(words) ? " " : "";
    const after = HAN.test(all[at + whole.length] || "") && /\d$/.test(words) ? " " : "";
    return `${before}${words}${after}`;
  });
}
