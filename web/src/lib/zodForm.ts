import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from '@schemas/zod';
import { type DefaultValues, type FieldError, type FieldValues, get, type Path, useForm } from 'react-hook-form';

/**
 * Every form's setup: react-hook-form checked by a zod schema (the one its endpoint uses, where it can), the
 * state flags forms show, and `field(name)`, a field's registration and error message in one spread for the
 * Field components, so each field names its key once: `<TextField label="Name" {...field('name')} />`.
 */
export function useZodForm<Input extends FieldValues, Output = Input>(schema: z.ZodType<Output, Input>, defaultValues: NoInfer<DefaultValues<Input>>) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  const { errors, isSubmitting, isDirty } = form.formState;
  const field = (name: Path<Input>) => ({ ...form.register(name), error: get<typeof errors, FieldError | undefined>(errors, name)?.message });
  return { ...form, field, errors, isSubmitting, isDirty };
}
