export interface ThemeSettings {
  colors: Record<string, string>;
  mode: 'light' | 'dark' | 'system';
}

export interface Personalization {
  assistantName: string | null;
  assistantAvatar: string | null;
  emptyStateIcon: string | null;
  welcomeMessage: string | null;
  chatTitle: string | null;
  poweredByVisible: boolean;
  theme: ThemeSettings;
  defaultLocale: string | null;
  triggerButtonColor: string | null;
  triggerButtonImageUrl: string | null;
}

export interface DevPrompts {
  global: string[];
  screens: Record<string, string[]>;
}

export interface Project {
  id: string;
  name: string;
  model: string;
  modelBaseUrl: string | null;
  modelApiKeySet: boolean;
  personaPromptSet: boolean;
  personalization: Personalization;
  devPrompts: DevPrompts;
  popularPromptFloor: number;
  maxHops: number;
  actionTimeoutSeconds?: number;
  escalateToolEnabled?: boolean;
  rateLimits: Record<string, unknown>;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  scope: 'sdk' | 'operator';
  projectId: string | null;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface ActionType {
  type: string;
  mcpVersion: string | null;
  description: string;
  payloadSchema: Record<string, unknown>;
}
