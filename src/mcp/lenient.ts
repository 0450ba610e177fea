// Output schemas as the client reads answers: leniently (api.md leaves much to the server). Every
// object of a record may lack a field and carry more (a server's additions reach the agent as
// sent, never stripped), at any depth; types still say what each known field is.
import * as z from 'zod';

export function lenient(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, value]) => [key, lenient(value).optional()]));
    return z.looseObject(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(lenient(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return lenient(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return lenient(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodDefault) return lenient(schema.unwrap() as z.ZodType);
  return schema;
}
