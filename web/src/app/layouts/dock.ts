/** The root layout's place, in its bottom dock, for the signed-in shells' notices that come after the page has painted. */
export const DOCK_NOTICES_ID = 'dock-notices';
