export interface Subscription {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  created_at: string;
}

export interface Delivery {
  delivery_id: string;
  event: string;
  status: string;
  occurred_at: string | null;
  created_at: string | null;
  next_attempt_at: string | null;
  attempts: {
    attempted_at: string | null;
    response_status: number | null;
    duration_ms: number;
    error: string | null;
    response_body: string | null;
  }[];
}
