// On a small screen the archive's filters would fill the first screen before any result: start them
// folded (templates/archive/index.html loads this only when the search has no errors to show).
if (window.matchMedia("(max-width: 699px)").matches) {
  const filters = document.getElementById("archive-filters");
  if (filters) filters.open = false;
}
