// Why a place on the sheet cannot take what the player is placing now, in a line: a tap on a
// place that does not glow (a marked box, a locked slot, a slot of another role, another area)
// is answered with this rather than ignored. The legal actions decide; this only explains.

import { t } from "/static/common/i18n.js";
import { areaOfKey } from "./sheet.js";
import { AREA_NAMES, names, ROLE_NAMES } from "./words.js";

/**
 * The reason, for the place `key` (a sheet key such as "crew:3", or null for an area tapped
 * outside its boxes): `card` is the card being placed (null while a bonus is placed), `targets`
 * the keys of the glowing places, `marked` whether the place is already ticked or filled.
 */
export function whyNot(ed, board, key, { card, targets, marked }) {
  const places = [...targets].filter((k) => k !== "fail");
  if (card && !places.length) return t("rec.ph.cant.nowhere");
  if (key && marked) return t("rec.ph.cant.marked");
  const [kind, n] = (key || "").split(":");
  if (kind === "crew") {
    const slot = ed.crew[Number(n)];
    const role = ed.cards[card]?.kind === "crew" ? ed.cards[card].role : null;
    if (role && slot.role !== role)
      return t("rec.ph.cant.role", { slot: ROLE_NAMES[slot.role], card: ROLE_NAMES[role] });
    if (slot.cash !== null && targets.has(`cash:${slot.cash}`)) return t("rec.ph.cant.tap_lock");
    if (slot.cash !== null && !board.cash_lifted.includes(ed.restrictions[slot.cash]))
      return t("rec.ph.cant.locked");
  }
  const areas = names([...new Set(places.map((k) => AREA_NAMES[areaOfKey(ed, k)]))]);
  return t(card ? "rec.ph.cant.card_area" : "rec.ph.cant.bonus_area", { areas });
}
