// Custom attribute definitions and values (seed 001, "Custom attribute (users and groups)").
// Definitions are upserted — group attributes matched by `apiId`, user attributes by `id` — their
// type never changes, and options of choice types may. Values are checked against their definition.
import { characterCount } from './characters.ts';
import { isCalendarDay } from './clock.ts';
import { FieldErrors } from './errors.ts';
import {
  type AttributeDefinition,
  type AttributeInputValue,
  type AttributeType,
  type AttributeValue,
  CHOICE_TYPES,
  type User,
} from './model.ts';
import type { TenantState } from './tenant-state.ts';

export interface AttributeInput {
  id?: number;
  name: string;
  type: AttributeType;
  apiId?: string;
  position: number;
  isRequired: boolean;
  isVisible: boolean;
  isEditable?: boolean;
  extraData?: { position?: number; value: string }[] | null;
}

export const definitionsOf = (t: TenantState, scope: 'user' | 'group') =>
  [...t.attributes.values()]
    .filter((a) => a.scope === scope)
    .sort((a, b) => a.position - b.position || a.id - b.id);

/** Creates or updates definitions; all-or-nothing: any error leaves every definition as it was. */
export function upsertAttributes(
  t: TenantState,
  scope: 'user' | 'group',
  inputs: AttributeInput[],
): AttributeDefinition[] {
  const errors = new FieldErrors();
  const existing = definitionsOf(t, scope);
  const apiIdsInRequest = new Map<string, number>();
  const namesInRequest = new Set<string>();
  const matches = inputs.map((input, i) => {
    const key = `attributes[${i}]`;
    const match =
      scope === 'group'
        ? existing.find((d) => input.apiId !== undefined && d.apiId === input.apiId)
        : input.id !== undefined
          ? existing.find((d) => d.id === input.id)
          : undefined;
    if (scope === 'user' && input.id !== undefined && !match) errors.add(`${key}.id`, 'attribute not found');
    if (match && match.type !== input.type) errors.add(`${key}.type`, 'type cannot be changed');
    if (CHOICE_TYPES.includes(input.type) && !input.extraData?.length) {
      errors.add(`${key}.extraData`, 'options required for choice type attributes');
    }
    // Unique within its kind (seed 001: "must be unique when provided"): a user and a group
    // attribute may share an apiId, as their values live apart.
    if (input.apiId !== undefined) {
      const clash = existing.find((d) => d.apiId === input.apiId && d !== match);
      if (clash || apiIdsInRequest.has(input.apiId)) errors.add(`${key}.apiId`, 'apiId must be unique');
      apiIdsInRequest.set(input.apiId, i);
    }
    // Group values are keyed by name (seed 001, Group: "keyed by attribute name"): two group
    // attributes of one name could not both hold a value.
    if (scope === 'group') {
      const clash = existing.find((d) => d.name === input.name && d !== match);
      if (clash || namesInRequest.has(input.name))
        errors.add(
          `${key}.name`,
          'name must be unique among group attributes: their values are keyed by name',
        );
      namesInRequest.add(input.name);
    }
    return match;
  });
  errors.throwIfAny();

  return inputs.map((input, i) => {
    const def: AttributeDefinition = matches[i] ?? {
      id: t.nextId('attribute'),
      scope,
      name: input.name,
      type: input.type,
      apiId: input.apiId ?? '',
      position: input.position,
      isRequired: input.isRequired,
      isVisible: input.isVisible,
      isEditable: input.isEditable ?? true,
      extraData: null,
    };
    const keyBefore = matches[i] ? keyOf(scope, def) : null;
    const optionsBefore = (def.extraData ?? []).map((o) => o.value);
    // An update by `id` may rename the apiId too; stored values follow below.
    if (input.apiId !== undefined) def.apiId = input.apiId;
    if (!def.apiId) {
      def.apiId = `${scope}_attr_${def.id}`;
      while (definitionsOf(t, scope).some((d) => d.apiId === def.apiId && d !== def)) def.apiId += '_';
    }
    def.name = input.name;
    def.position = input.position;
    def.isRequired = input.isRequired;
    def.isVisible = input.isVisible;
    if (scope === 'user') def.isEditable = input.isEditable ?? def.isEditable;
    def.extraData = CHOICE_TYPES.includes(def.type)
      ? mergeOptions(t, def.extraData ?? [], input.extraData ?? [])
      : null;
    t.attributes.set(def.id, def);
    if (keyBefore !== null) keepValuesConsistent(t, scope, def, keyBefore, optionsBefore);
    return def;
  });
}

/** Users key values by `apiId`, groups by `name` (seed 001, User and Group: `attributes`). */
const keyOf = (scope: 'user' | 'group', d: AttributeDefinition) => (scope === 'user' ? d.apiId : d.name);

/**
 * After a definition changed, the values stored under it follow: a renamed key (a user attribute's
 * `apiId`, a group attribute's `name`) moves them, and a removed option leaves them (a single
 * choice of it is removed, a multiple choice loses it), so that no value names what no longer exists.
 */
function keepValuesConsistent(
  t: TenantState,
  scope: 'user' | 'group',
  def: AttributeDefinition,
  keyBefore: string,
  optionsBefore: string[],
): void {
  const key = keyOf(scope, def);
  const kept = new Set((def.extraData ?? []).map((o) => o.value));
  const removed = optionsBefore.filter((v) => !kept.has(v));
  if (key === keyBefore && !removed.length) return;
  // A made user holds no values (user-table.ts): a million of them are not read on every change.
  const holders = scope === 'user' ? t.users.keptUsers() : t.groups.values();
  for (const found of holders) {
    if (!(keyBefore in found.attributes)) continue;
    // A scale seed's user is changed through the object TenantState keeps for writes (user-table.ts).
    const holder = scope === 'user' ? (t.editUser(found.id) as User) : found;
    let value = holder.attributes[keyBefore] as AttributeValue;
    delete holder.attributes[keyBefore];
    if (def.type === 3 && typeof value === 'string' && removed.includes(value)) continue;
    if (def.type === 4 && Array.isArray(value)) value = value.filter((v) => !removed.includes(v));
    holder.attributes[key] = value;
  }
}

/** Options keep their id when their value is kept; new values get new ids; missing ones are dropped. */
function mergeOptions(
  t: TenantState,
  current: NonNullable<AttributeDefinition['extraData']>,
  wanted: NonNullable<AttributeInput['extraData']>,
) {
  return wanted.map((o, i) => ({
    id: current.find((c) => c.value === o.value)?.id ?? t.nextId('attributeOption'),
    position: o.position ?? i + 1,
    value: o.value,
  }));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO date (or date-time) of a day that exists: `Date.parse` alone would take 2024-02-30 as March 1st. */
function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m || Number.isNaN(Date.parse(value))) return false;
  return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Why `value` does not fit `def`, or null (seed 001, "Type rules"). */
function valueProblem(t: TenantState, def: AttributeDefinition, value: AttributeInputValue): string | null {
  if (value === null) return def.isRequired ? 'is required' : null;
  const options = (def.extraData ?? []).map((o) => o.value);
  switch (def.type) {
    case 1:
      return typeof value !== 'string'
        ? 'must be text'
        : characterCount(value) > 255
          ? 'must be at most 255 characters'
          : null;
    case 2:
      return typeof value === 'string' && isIsoDate(value) ? null : 'must be a date in ISO format';
    case 3:
      return typeof value === 'string' && options.includes(value)
        ? null
        : `must be one of: ${options.join(', ')}`;
    case 4:
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && options.includes(v))
        ? null
        : `must be a list of: ${options.join(', ')}`;
    case 5:
      return typeof value === 'string' && t.userByApiId(value) ? null : 'must be the API id of a user';
    case 6:
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 7:
      return typeof value === 'string' && /^https?:\/\/\S+$/.test(value) ? null : 'must be an http(s) link';
    case 8:
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
  }
}

/** Values `checkValues` found no problem with: each fits its attribute, so it is a stored value. */
export const checkedValues = (values: Record<string, AttributeInputValue>) =>
  values as Record<string, AttributeValue>;

/**
 * Checks a complete set of values (create, or PATCH which replaces the set): each key must name a
 * definition, each value fit its type, and each required attribute be present.
 * Users key values by `apiId`, groups by `name`.
 */
export function checkValues(
  t: TenantState,
  scope: 'user' | 'group',
  values: Record<string, AttributeInputValue>,
  errors: FieldErrors,
): void {
  const defs = definitionsOf(t, scope);
  const keyOf = (d: AttributeDefinition) => (scope === 'user' ? d.apiId : d.name);
  for (const [key, value] of Object.entries(values)) {
    const def = defs.find((d) => keyOf(d) === key);
    if (!def) errors.add(`attributes.${key}`, 'unknown attribute');
    else {
      const problem = valueProblem(t, def, value);
      if (problem) errors.add(`attributes.${key}`, problem);
    }
  }
  for (const def of defs.filter((d) => d.isRequired && !(keyOf(d) in values))) {
    errors.add(`attributes.${keyOf(def)}`, 'is required');
  }
}
