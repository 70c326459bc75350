import { Link } from '../components/link.js';
import { useSession } from '../session.js';

export function Home() {
  const { user } = useSession();
  return (
    <section>
      <h1>Welcome, {user.name || user.email}</h1>
      <ul class="cards">
        <li>
          <Link to="/integrations/parcel-tracking">Parcel tracking</Link>
          <p>Connect your provider, watch quota, shipments and the webhook log.</p>
        </li>
        <li>
          <Link to="/webhooks">Webhooks</Link>
          <p>Send signed events to your own endpoints and inspect every delivery.</p>
        </li>
        <li>
          <Link to="/settings/developer/tokens">Personal access tokens</Link>
          <p>Tokens for the API, with their request history and usage.</p>
        </li>
      </ul>
    </section>
  );
}
