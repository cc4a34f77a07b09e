export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  /** JSON array of subscribed event types. */
  event_types: string;
  /** `whsec_…`; needed in clear to sign, so it is stored as is (like any HMAC key). */
  secret: string;
  /** After a rotation the old secret also signs until it expires, so receivers can switch over. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  /** The escalation event id: also the `webhook-id` header. */
  event_id: string;
  event_type: string;
  /** JSON body, exactly as sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** Due time while pending; pushed forward by a lease while an attempt is in flight. */
  next_attempt_at: string;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
}
