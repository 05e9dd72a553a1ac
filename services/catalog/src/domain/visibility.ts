/**
 * Members see (and may order) a product only when both it and its platform are visible. The
 * `visible` in ServiceUpserted is this combined value, so the order service's replica refuses
 * what the order screen does not show.
 */
export function effectiveVisible(serviceVisible: boolean, platformVisible: boolean): boolean {
  return serviceVisible && platformVisible;
}
