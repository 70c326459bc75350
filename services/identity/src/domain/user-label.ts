/**
 * A user as an alert or activity line names them: "Name (email)", or "user <id>" for one no
 * longer found; bounded, since both come from the user.
 */
export function userLabel(user: { name: string; email: string } | null, userId: number): string {
  return (user ? `${user.name} (${user.email})` : `user ${userId}`).slice(0, 600);
}
