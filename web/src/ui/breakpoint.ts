/** Spec §1 breakpoint: below it a history row becomes a card with every field (no sideways scrolling). */
export const narrowScreen = 'screen and (max-width: 880px)';
