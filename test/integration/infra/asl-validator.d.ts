declare module 'asl-validator' {
  interface AslValidationResult {
    isValid: boolean;
    errors: { 'Error code': string; Message: string }[];
    errorsText(separator?: string): string;
  }
  function aslValidator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): AslValidationResult;
  export = aslValidator;
}
