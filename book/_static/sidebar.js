/* The sidebar opens at its top when it can.
 *
 * The theme scrolls the sidebar so that the current page's link sits a quarter of the way down
 * whenever that link lies in the lower half of the window; on most chapter pages the sidebar
 * then opens with the logo cut in half, though the link would be in view unscrolled. Once the
 * page has loaded (after the theme's own handler), this scrolls it back to the top in that case.
 */
window.addEventListener("load", function () {
  "use strict";
  var bar = document.querySelector("div.bd-sidebar-primary");
  var links = bar ? bar.querySelectorAll(".bd-docs-nav .active") : [];
  if (!links.length || !bar.scrollTop) { return; }
  var link = links[links.length - 1].getBoundingClientRect();
  if (link.bottom + bar.scrollTop <= bar.getBoundingClientRect().bottom) { bar.scrollTop = 0; }
});
