export function Pager(props: {
  page: number;
  lastPage: number;
  total: number;
  onPage: (page: number) => void;
}) {
  if (props.total === 0) return null;
  return (
    <nav class="pager" aria-label="Pagination">
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {props.page} of {Math.max(props.lastPage, 1)} ({props.total} total)
      </span>
      <button
        type="button"
        disabled={props.page >= props.lastPage}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
