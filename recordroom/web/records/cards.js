// Cards and goals as players see them: a game card with its type, sub-area, points, side colours
// and what it marks; a goal card with its condition in words and a board's progress towards it, as
// the engine judges it (the view's `goal_progress`: the page never counts a condition itself).

import { el, initials, seatColour } from "/static/common/client.js";
import { has, t } from "/static/common/i18n.js";
import {
  BONUS,
  bonusWords,
  cardWords,
  colourOf,
  goalCondition,
  goalName,
  ROLE_NAMES,
} from "./words.js";

/** A game card. Crew cards wear their four side colours as the card's edges. */
export function cardFace(ed, id, options = {}) {
  const card = ed.cards[id];
  const words = cardWords(ed, id);
  if (!card) return el("div", { class: "card-face" }, id);
  const style = {};
  if (card.kind === "crew") {
    ["top", "right", "bottom", "left"].forEach((side, i) => {
      style[`--${side}`] = colourOf(card.sides[i]);
    });
  }
  return el(
    "div",
    {
      class: `card-face kind-${card.kind}${card.role ? ` role-${card.role}` : ""}${options.chosen ? " chosen" : ""}`,
      style,
    },
    el(
      "span",
      { class: "card-type" },
      t(`rec.card.${card.kind === "crew" ? "crew" : card.kind === "agenda" ? "agenda" : "asset"}`),
    ),
    el(
      "span",
      { class: "card-main" },
      card.kind === "crew"
        ? [
            el("b", { class: "card-points" }, String(card.points)),
            el("span", { class: "card-role" }, ROLE_NAMES[card.role]),
          ]
        : el(
            "span",
            { class: "card-icon", "aria-hidden": "true" },
            card.kind === "agenda" ? BONUS.agenda.glyph : BONUS.asset.glyph,
          ),
    ),
    el("span", { class: "card-marks" }, words.marks),
  );
}

/**
 * A seat's progress towards a goal, from the view: `{have, need, meets, claimable, claimed}` of
 * the seat's own goals (`view.you.goal_progress`) or of a public goal on that seat's board
 * (`view.goal_progress`), or null when the view does not show it.
 */
export const goalProgress = (view, seat, id) =>
  (view.seat === seat ? view.you?.goal_progress?.[id] : null) ??
  view.goal_progress?.[id]?.[seat] ??
  null;

/** A goal card: name, points, bonus, condition, and a board's progress towards it (`status`, from
 * goalProgress; none shown when null). */
export function goalCard(ed, id, status, options = {}) {
  const goal = ed.goals[id];
  if (!goal) return el("div", { class: "goal-card" }, id);
  const state = !status ? "" : status.claimed ? "claimed" : status.claimable ? "meets" : "short";
  const progress = !status
    ? null
    : status.claimed
      ? t("rec.goalcard.claimed")
      : status.meets
        ? status.claimable
          ? t("rec.goalcard.meets")
          : t("rec.goalcard.no_box")
        : t("rec.goalcard.have", { have: status.have, need: status.need });
  return el(
    "div",
    {
      class: `goal-card ${state}${options.current ? " current" : ""}${options.leaving ? " leaving" : ""}`,
      "data-goal": id,
      "data-meets": status ? String(status.claimable) : null,
    },
    options.slot
      ? el(
          "span",
          { class: "goal-slot" },
          options.leaving ? t("rec.goalcard.leaves", { slot: options.slot }) : String(options.slot),
        )
      : null,
    el(
      "span",
      { class: "goal-head" },
      el("b", {}, goalName(ed, id)),
      el("span", { class: "goal-points" }, t("rec.goalcard.pts", { points: goal.points })),
    ),
    el("span", { class: "goal-cond" }, goalCondition(goal)),
    goal.bonus
      ? el(
          "span",
          { class: "goal-bonus" },
          t("rec.goalcard.bonus", { bonus: bonusWords(goal.bonus) }),
        )
      : null,
    progress ? el("span", { class: "goal-progress" }, progress) : null,
  );
}

/** Which way the hands pass this week, and to whom. */
export function directionLine(view, seat, seats) {
  const n = view.players;
  if (n < 2) return null;
  const step = view.direction === "clockwise" ? 1 : -1;
  const to = seats[(seat + step + n) % n],
    from = seats[(seat - step + n) % n];
  const arrow = view.direction === "clockwise" ? "↻" : "↺";
  return el(
    "p",
    { class: "direction" },
    el("span", { class: "direction-arrow", "aria-hidden": "true" }, arrow),
    t("rec.direction.line", {
      direction: has(`rec.direction.${view.direction}`)
        ? t(`rec.direction.${view.direction}`)
        : view.direction,
    }),
    el(
      "span",
      { class: "disc tiny", style: { "--c": seatColour(to.seat) } },
      el("span", {}, initials(to.name)),
    ),
    t("rec.direction.from", { to: to.name, from: from.name }),
  );
}
