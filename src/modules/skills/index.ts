// The skills module (a business's skill catalogue, its drivers' skills, its orders' required skills): what the composition root may use.

export { skillsOperations } from './operations.ts';
export { SkillsService } from './service.ts';
