// Webhook endpoints a tenant registers and the deliveries made to them.

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: string[];
  createdAt: number;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}
