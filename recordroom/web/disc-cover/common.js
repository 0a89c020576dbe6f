// What the Disc Cover table screen and phone share beyond the common client: sleeve pictures,
// votes per Record card and the tier table. The common client is re-exported, so the pages
// import from one place.
import { el } from "/static/common/client.js";
import { t } from "/static/common/i18n.js";

export {
  $,
  $$,
  ApiError,
  api,
  CLOSE,
  deadline,
  el,
  initials,
  normaliseCode,
  RoomSocket,
  SEAT_COLOURS,
  seatColour,
  secondsLeft,
  toast,
  tokens,
} from "/static/common/client.js";

/** The picture of a sleeve, with its title and artist as the accessible name. */
export function sleeveImage(sleeve, className = "sleeve-art") {
  const label = sleeve.title
    ? t("dc.sleeve.by", { title: sleeve.title, artist: sleeve.artist })
    : t("dc.sleeve.n", { id: sleeve.id });
  const image = el("img", {
    class: className,
    src: `/api/sleeves/${sleeve.id}`,
    alt: label,
    draggable: "false",
    decoding: "async",
  });
  image.addEventListener(
    "error",
    () => {
      // No picture from the server: a plain printed sleeve with its title.
      const plain = el(
        "div",
        { class: `${className} sleeve-plain`, role: "img", "aria-label": label },
        el("span", { class: "plain-title" }, sleeve.title || `#${sleeve.id}`),
        el("span", { class: "plain-artist" }, sleeve.artist || ""),
      );
      image.replaceWith(plain);
    },
    { once: true },
  );
  return image;
}

/** Cards chosen per Record card: {1: [seat, ...], ...}. */
export function votesByCard(votes) {
  const out = { 1: [], 2: [], 3: [], 4: [] };
  (votes || []).forEach((card, seat) => {
    if (card >= 1 && card <= 4) out[card].push(seat);
  });
  return out;
}

// The cooperative score table of the rules: for each player count, the lowest score of each tier
// after Cacophony (the engine's recordroom/games/disc_cover/scoring.py; a test keeps them equal).
export const TIERS = [
  "Cacophony",
  "Wrong Notes",
  "Right Notes",
  "On the beat",
  "In sync",
  "Perfect harmony",
];
export const TIER_FLOORS = {
  3: [10, 13, 18, 22, 24],
  4: [13, 17, 23, 29, 32],
  5: [16, 21, 29, 36, 40],
  6: [19, 25, 35, 43, 48],
  7: [22, 29, 40, 50, 56],
  8: [26, 33, 46, 58, 64],
};

/** The tier ladder of a team: [{tier, min, reached, current}], and the next tier's threshold. */
export function tierLadder(players, score) {
  const floors = [0, ...(TIER_FLOORS[String(players)] || [])];
  const ladder = TIERS.slice(0, floors.length).map((tier, i) => ({
    tier,
    min: floors[i],
    reached: score >= floors[i],
  }));
  const at = ladder.filter((step) => step.reached).length - 1;
  if (at >= 0) ladder[at].current = true;
  const next = ladder[at + 1] || null;
  return {
    ladder,
    next: next ? { tier: next.tier, min: next.min, missing: next.min - score } : null,
  };
}

const tierName = (tier) => t(`dc.tier.${tier}`);

/** The line under the team's tier: how many points the next tier needs, or that it is the top. */
export function nextTierLine(next) {
  return next
    ? t("dc.over.next_tier", { count: next.missing, tier: tierName(next.tier), min: next.min })
    : t("dc.over.top");
}

/** The steps of a {@link tierLadder}, highest first, as list items (the team's step lit). */
export function ladderItems(ladder) {
  return ladder
    .slice()
    .reverse()
    .map((step) =>
      el(
        "li",
        {
          class: `${step.reached ? "reached" : ""}${step.current ? " current" : ""}`,
          "aria-current": step.current ? "step" : null,
        },
        el("span", { class: "ladder-tier" }, tierName(step.tier)),
        el("span", { class: "ladder-min" }, `${step.min}+`),
      ),
    );
}
